// SystemC testbench of rtl/src/sp24_dot.sv Verilated in SystemC mode (Vsp24_dot_sc, an
// sc_module with sc_in/sc_out ports): an sc_clock, signals, and two SC_CTHREADs, one
// feeding beats under the valid/ready handshake with random bubbles, one taking results
// under random back-pressure. Every result is compared with the golden model
// (numerics mma_dot / mma_dot_int under the RTL's preset) bit for bit; vectors with an
// unordered metadata nibble are checked for the error flag only (as tb_sp24_dot).
//
//   tb_sp24_dot_sc [--vectors N] [--seed S] [--golden-preset NAME]
//   exit 0 equal, 1 mismatches, 2 usage (--golden-preset: compare with another preset's
//   numerics, to see the comparison fail)
//
// This is the SystemC flow of the RTL (verilate(... SYSTEMC), C++17 and the project's
// SystemC); the tensor-core model uses the C++-mode model instead (rtl/model).
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "Vsp24_dot_sc.h"
#include "tests/rtl/dot_vectors.h"

#ifndef STC_PRESET
#error "STC_PRESET must name the preset rtl/ was generated from"
#endif

using namespace stcsim::rtl_tb;
using namespace sc_core;
namespace num = stcsim::numerics;

namespace {

// The data type of a Verilated port (uint32_t, uint64_t or sc_bv<W>, by its width).
template <class Port>
using port_data_t = typename std::remove_reference_t<Port>::data_type;

template <class T>
void set_bits(T& v, int lsb, int width, std::uint64_t x) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    v = static_cast<T>((static_cast<std::uint64_t>(v) & ~mask) | ((x << lsb) & mask));
  } else {
    v.range(lsb + width - 1, lsb) = sc_dt::sc_bv<64>(x).range(width - 1, 0);
  }
}

SC_MODULE(Bench) {
  sc_clock clk{"clk", 1, SC_NS};
  sc_in<bool> clk_in{"clk_in"};  // the threads' clock (pos(): rising edges)
  sc_signal<bool> rst_n{"rst_n"}, in_valid{"in_valid"}, in_ready{"in_ready"}, in_first{"in_first"},
      in_last{"in_last"}, in_bf16{"in_bf16"}, in_int8{"in_int8"}, out_valid{"out_valid"},
      out_ready{"out_ready"}, out_meta_err{"out_meta_err"};
  Vsp24_dot_sc dut{"dut"};
  sc_signal<port_data_t<decltype(dut.in_meta)>> in_meta{"in_meta"};
  sc_signal<port_data_t<decltype(dut.in_a)>> in_a{"in_a"};
  sc_signal<port_data_t<decltype(dut.in_b)>> in_b{"in_b"};
  sc_signal<std::uint32_t> in_c{"in_c"}, out_d{"out_d"};

  int block = 8;
  std::vector<DotVec> vecs;
  std::vector<DotResult> got;
  std::mt19937_64 feed_rng{1}, take_rng{2};  // one per thread: the schedule is fixed

  SC_CTOR(Bench) {
    clk_in(clk);
    dut.clk(clk);
    dut.rst_n(rst_n);
    dut.in_valid(in_valid);
    dut.in_ready(in_ready);
    dut.in_first(in_first);
    dut.in_last(in_last);
    dut.in_bf16(in_bf16);
    dut.in_int8(in_int8);
    dut.in_a(in_a);
    dut.in_meta(in_meta);
    dut.in_b(in_b);
    dut.in_c(in_c);
    dut.out_valid(out_valid);
    dut.out_ready(out_ready);
    dut.out_d(out_d);
    dut.out_meta_err(out_meta_err);
    SC_CTHREAD(feed, clk_in.pos());
    SC_CTHREAD(take, clk_in.pos());
  }

  // Values read right after wait() are those the DUT sampled at this same edge, so
  // `in_ready` then says whether the beat just offered was taken.
  void feed() {
    rst_n.write(false);
    in_valid.write(false);
    wait(2);
    rst_n.write(true);
    for (const DotVec& v : vecs)
      for (int beat = 0; beat < v.beats; ++beat) {
        if ((feed_rng() & 15) == 0) {  // ~6% bubbles
          in_valid.write(false);
          wait();
        }
        drive(v, beat);
        in_valid.write(true);
        do wait();
        while (!in_ready.read());
      }
    in_valid.write(false);
  }

  void drive(const DotVec& v, int beat) {
    const int kept = block / 2, groups = block / 4;
    auto a = in_a.read();
    auto meta = in_meta.read();
    auto b = in_b.read();
    for (int i = 0; i < kept; ++i) set_bits(a, 16 * i, 16, v.kept[beat * kept + i]);
    for (int g = 0; g < groups; ++g) set_bits(meta, 4 * g, 4, v.nibbles[beat * groups + g]);
    for (int j = 0; j < block; ++j) set_bits(b, 16 * j, 16, v.b[beat * block + j]);
    in_a.write(a);
    in_meta.write(meta);
    in_b.write(b);
    in_c.write(v.c);
    in_first.write(beat == 0);
    in_last.write(beat == v.beats - 1);
    in_bf16.write(v.bf16);
    in_int8.write(v.int8);
  }

  void take() {
    out_ready.write(true);
    std::uint64_t idle = 0;
    for (;;) {
      wait();
      if (out_valid.read() && out_ready.read()) {
        got.push_back({out_d.read(), out_meta_err.read()});
        idle = 0;
        if (got.size() == vecs.size()) sc_stop();
      } else if (++idle > 1000) {
        std::cerr << "tb_sp24_dot_sc: no output for 1000 cycles (pipeline hung)\n";
        sc_stop();
      }
      out_ready.write((take_rng() & 7) != 0);  // ~12% back-pressure
    }
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  long long n = 20000;
  std::uint64_t seed = 1;
  std::string golden_preset = STC_PRESET;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 < argc && a == "--vectors") {
      n = std::stoll(argv[++i]);
    } else if (i + 1 < argc && a == "--seed") {
      seed = std::stoull(argv[++i]);
    } else if (i + 1 < argc && a == "--golden-preset") {
      golden_preset = argv[++i];
    } else {
      std::cerr << "tb_sp24_dot_sc: unknown option or missing value: " << a << "\n";
      return 2;
    }
  }
  const num::AccumulationModel model =
      num::accumulation_preset(golden_preset, num::FloatFormat::FP16);
  Bench bench("bench");
  bench.block = num::accumulation_preset(STC_PRESET, num::FloatFormat::FP16).block_size;
  std::mt19937_64 gen(seed);
  for (long long i = 0; i < n; ++i) bench.vecs.push_back(random_vec(bench.block, gen));
  bench.feed_rng.seed(seed + 1);
  bench.take_rng.seed(seed + 2);
  sc_start();

  size_t mismatches = 0, checked = 0, flagged = 0;
  ResultClasses classes;
  if (bench.got.size() != bench.vecs.size()) {
    std::cerr << "tb_sp24_dot_sc: " << bench.got.size() << " results for " << bench.vecs.size()
              << " vectors\n";
    return 1;
  }
  for (size_t i = 0; i < bench.vecs.size(); ++i) {
    const DotVec& v = bench.vecs[i];
    bool ok;
    std::uint32_t expect = 0;
    if (v.invalid_meta) {
      ok = bench.got[i].meta_err;
      ++flagged;
    } else {
      expect = golden(v, bench.block, model);
      classes.add(v, expect);
      ok = !bench.got[i].meta_err && bench.got[i].d == expect;
      ++checked;
    }
    if (!ok && mismatches++ < 5)
      std::cerr << "MISMATCH vector " << i << " fmt=" << format_name(v)
                << " k=" << v.beats * bench.block << std::hex << " c=" << v.c
                << " expected=" << expect << " rtl=" << bench.got[i].d << std::dec
                << " a=" << hex_list(logical_a(v, bench.block)) << " b=" << hex_list(v.b) << "\n";
  }
  std::cout << "SystemC-mode sp24_dot (" << STC_PRESET << ", golden " << golden_preset << "), "
            << sc_time_stamp().to_seconds() * 1e9
            << " cycles of a 1 ns sc_clock: " << bench.vecs.size() << " dot products, " << checked
            << " compared bit for bit, " << flagged << " unordered-metadata flags checked; "
            << mismatches << " mismatches\nresults: " << classes.str() << "\n";
  return mismatches ? 1 : 0;
}
