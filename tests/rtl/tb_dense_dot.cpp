// Co-simulation of rtl/src/dense_dot.sv (Verilated) against the golden model (numerics
// mma_dot / mma_dot_int under the preset the RTL was generated from), bit for bit.
//
//   tb_dense_dot [--vectors N] [--seed S] [--fail-file F] [--golden-preset NAME]
//
// The vectors are tb_sp24_dot's (dot_vectors.h: fp16, bf16, 1/8 s8; specials, tiny,
// cancelling) with a dense A: random values of the same mode at the positions a 2:4
// operand would prune. Random input bubbles and output back-pressure. Mismatches go to
// the fail file (format, K, A, B, C, expected, RTL). Exit: 0 equal, 1 mismatches, 2 usage.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "Vdense_dot.h"
#include "rtl/model/verilator_ports.h"
#include "tests/rtl/dot_stream.h"
#include "tests/rtl/dot_vectors.h"
#include "verilated.h"

#ifndef STC_PRESET
#error "STC_PRESET must name the preset rtl/ was generated from"
#endif

using namespace stcsim::rtl_tb;
using stcsim::rtl::put;
namespace num = stcsim::numerics;

int main(int argc, char** argv) {
  long long n = 200000;
  std::uint64_t seed = 1;
  std::string fail_path = "rtl_failures_dense.txt";
  std::string golden_preset = STC_PRESET;  // another: the comparison must fail
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "tb_dense_dot: " << a << " needs a value (or is unknown)\n";
      return 2;
    }
    if (a == "--vectors")
      n = std::stoll(argv[++i]);
    else if (a == "--seed")
      seed = std::stoull(argv[++i]);
    else if (a == "--fail-file")
      fail_path = argv[++i];
    else if (a == "--golden-preset")
      golden_preset = argv[++i];
    else {
      std::cerr << "tb_dense_dot: unknown option " << a << "\n";
      return 2;
    }
  }
  const num::AccumulationModel model =
      num::accumulation_preset(golden_preset, num::FloatFormat::FP16);
  const int block = num::accumulation_preset(STC_PRESET, num::FloatFormat::FP16).block_size;
  std::mt19937_64 rng(seed), dense_rng(seed * 7919 + 1);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<DotVec> vecs;
  vecs.reserve(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) vecs.push_back(random_vec(block, rng, &dense_rng));

  VerilatedContext ctx;
  Vdense_dot t(&ctx);
  std::uint64_t cycles = 0;
  auto step = [&] {
    t.clk = 0;
    t.eval();
    t.clk = 1;
    t.eval();
    ++cycles;
  };
  t.rst_n = 0;
  t.in_valid = 0;
  step();
  step();
  t.rst_n = 1;
  auto drive = [&](Vdense_dot& top, const DotVec& v, int beat) {
    for (int j = 0; j < block; ++j) {
      put(top.in_a, 16 * j, 16, v.dense_a[beat * block + j]);
      put(top.in_b, 16 * j, 16, v.b[beat * block + j]);
    }
  };
  const auto got = stream_dots(
      t, step, drive,
      [](const Vdense_dot& top) {
        return DotResult{top.out_d, false};
      },
      vecs, rng);
  t.final();

  std::ofstream fail;
  size_t mismatches = 0, beats = 0;
  ResultClasses classes;
  for (size_t i = 0; i < vecs.size(); ++i) {
    const DotVec& v = vecs[i];
    beats += static_cast<size_t>(v.beats);
    const std::uint32_t expect = golden(v, block, model, /*dense=*/true);
    classes.add(v, expect);
    if (got[i].d == expect) continue;
    if (!fail.is_open()) fail.open(fail_path);
    char head[128];
    std::snprintf(head, sizeof head, "vector %zu fmt=%s k=%d c=%08x expected=%08x rtl=%08x", i,
                  format_name(v), v.beats * block, v.c, expect, got[i].d);
    fail << head << " a=" << hex_list(v.dense_a) << " b=" << hex_list(v.b) << "\n";
    if (mismatches < 5) std::cerr << "MISMATCH " << head << "\n";
    ++mismatches;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "dense_dot, preset " << STC_PRESET << " (block " << block << "): " << vecs.size()
            << " dot products, " << beats << " beats in " << cycles << " cycles; " << mismatches
            << " mismatches; " << secs << " s\nresults: " << classes.str() << "\n";
  if (mismatches) std::cout << "failing vectors written to " << fail_path << "\n";
  return mismatches ? 1 : 0;
}
