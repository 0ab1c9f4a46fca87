// Co-simulation of rtl/src/sp24_dot.sv (Verilated) against the C++ golden model
// (models/numerics mma_dot under the preset the RTL was generated from), bit for bit.
//
//   tb_sp24_dot [--vectors N] [--seed S] [--trace FILE] [--fail-file F] [--fst F]
//               [--inject-fail] [--golden-preset NAME]
//
// --vectors: random dot products (dot_vectors.h: fp16, bf16 and 1/8 s8, 1..4 beats of the
//   block size's logical K; never all zero; subnormals, +-0, +-inf, NaN, max finite and
//   random bit patterns mixed in; ~1% carry an unordered metadata nibble, checked only
//   for the error flag), streamed with random bubbles and back-pressure (dot_stream.h).
// --trace: also every row of every 2:4 fp16 op of a trace v1 (stcsim trace): each row of
//   the pruned weight is A (every group goes through), B random activations.
// Mismatches are written to --fail-file (one line each: format, K, A logical, B, C,
// expected, RTL); with --fst the first failing vector is re-run alone into an FST
// waveform. --inject-fail corrupts one expected value, --golden-preset compares against
// another preset's numerics (both test that the comparison can fail).
// Exit: 0 all equal, 1 mismatches, 2 usage or input error.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vsp24_dot.h"
#include "models/numerics/accumulation_model.h"
#include "rtl/model/verilator_ports.h"
#include "tests/rtl/dot_stream.h"
#include "tests/rtl/dot_vectors.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "workloads/trace/trace.h"

#ifndef STC_PRESET
#error "STC_PRESET must name the preset rtl/ was generated from"
#endif

namespace num = stcsim::numerics;
using namespace stcsim::rtl_tb;
using stcsim::rtl::put;

namespace {

num::AccumulationModel g_model;  // the golden model's accumulation (the RTL's preset)
int g_block = 8;                 // logical products per beat (the RTL preset's block size)

// ---- the DUT
class Dut {
 public:
  explicit Dut(const std::string& fst_path) : ctx_(std::make_unique<VerilatedContext>()) {
    if (!fst_path.empty()) ctx_->traceEverOn(true);
    top_ = std::make_unique<Vsp24_dot>(ctx_.get());
    if (!fst_path.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(fst_path.c_str());
    }
    top_->clk = 0;
    top_->rst_n = 0;
    top_->in_valid = 0;
    top_->out_ready = 1;
    step();
    step();
    top_->rst_n = 1;
  }
  ~Dut() {
    if (fst_) fst_->close();
    top_->final();
  }
  Vsp24_dot& top() { return *top_; }
  // One clock: inputs are set; evaluate, rising edge, falling edge.
  void step() {
    top_->clk = 0;
    top_->eval();
    if (fst_) fst_->dump(time_);
    time_ += 5;
    top_->clk = 1;
    top_->eval();
    if (fst_) fst_->dump(time_);
    time_ += 5;
    ++cycles_;
  }
  std::uint64_t cycles() const { return cycles_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsp24_dot> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::uint64_t time_ = 0, cycles_ = 0;
};

void drive_beat(Vsp24_dot& t, const DotVec& v, int beat) {
  const int kept = g_block / 2, groups = g_block / 4;
  for (int i = 0; i < kept; ++i) put(t.in_a, 16 * i, 16, v.kept[beat * kept + i]);
  for (int g = 0; g < groups; ++g) put(t.in_meta, 4 * g, 4, v.nibbles[beat * groups + g]);
  for (int j = 0; j < g_block; ++j) put(t.in_b, 16 * j, 16, v.b[beat * g_block + j]);
}

std::vector<DotResult> run(Dut& dut, const std::vector<DotVec>& vecs, std::mt19937_64& rng) {
  return stream_dots(
      dut.top(), [&] { dut.step(); }, drive_beat,
      [](const Vsp24_dot& t) {
        return DotResult{t.out_d, t.out_meta_err != 0};
      },
      vecs, rng);
}

// Every row of every 2:4 fp16 op of the trace, B random activations (fp16, |x| ~ 2^-4..2^3).
std::vector<DotVec> trace_vecs(const std::string& path, std::mt19937_64& rng, size_t* groups_out) {
  const stcsim::workloads::Trace tr = stcsim::workloads::read_trace(path);
  std::vector<DotVec> vecs;
  size_t groups_total = 0, ops = 0;
  for (const auto& op : tr.ops) {
    if (op.sparsity != "2:4" || op.values_dtype != "fp16" || op.values.empty()) continue;
    const stcsim::sparse::CompressedNm c = op.compressed();
    ++ops;
    const int gpr = c.groups_per_row();
    const int gpb = g_block / 4;
    const int beats = (gpr + gpb - 1) / gpb;
    for (int r = 0; r < c.rows; ++r) {
      DotVec v;
      v.beats = beats;
      for (int g = 0; g < beats * gpb; ++g) {
        if (g < gpr) {
          const size_t at = static_cast<size_t>(r) * c.kept_cols() + 2 * g;
          v.kept.push_back(c.values[at]);
          v.kept.push_back(c.values[at + 1]);
          v.nibbles.push_back(static_cast<std::uint8_t>(c.indices[at] | (c.indices[at + 1] << 2)));
          ++groups_total;
        } else {  // pad to a whole beat with an all-zero group (nibble 0xE)
          v.kept.push_back(0);
          v.kept.push_back(0);
          v.nibbles.push_back(0xE);
        }
      }
      for (int j = 0; j < beats * g_block; ++j) v.b.push_back(finite16(false, 11, 18, rng));
      v.c = rng() % 2 ? 0u : value32(Mode::Similar, rng);
      vecs.push_back(std::move(v));
    }
  }
  std::cout << "trace " << path << ": " << ops << " 2:4 fp16 ops, " << vecs.size() << " rows, "
            << groups_total << " groups\n";
  if (groups_out) *groups_out = groups_total;
  return vecs;
}

}  // namespace

int main(int argc, char** argv) {
  long long n_random = 1000000;
  std::uint64_t seed = 1;
  std::string trace_path, fail_path = "rtl_failures.txt", fst_path;
  bool inject = false;
  std::string golden_preset = STC_PRESET;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "tb_sp24_dot: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--vectors")
      n_random = std::stoll(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else if (a == "--trace")
      trace_path = next();
    else if (a == "--fail-file")
      fail_path = next();
    else if (a == "--fst")
      fst_path = next();
    else if (a == "--inject-fail")
      inject = true;
    else if (a == "--golden-preset")
      golden_preset = next();
    else {
      std::cerr << "tb_sp24_dot: unknown option " << a << "\n";
      return 2;
    }
  }
  g_block = num::accumulation_preset(STC_PRESET, num::FloatFormat::FP16).block_size;
  try {
    g_model = num::accumulation_preset(golden_preset, num::FloatFormat::FP16);
  } catch (const std::exception& e) {
    std::cerr << "tb_sp24_dot: " << e.what() << "\n";
    return 2;
  }
  std::mt19937_64 rng(seed);
  const auto t0 = std::chrono::steady_clock::now();

  std::vector<DotVec> vecs;
  vecs.reserve(static_cast<size_t>(n_random));
  for (long long i = 0; i < n_random; ++i) vecs.push_back(random_vec(g_block, rng));
  if (!trace_path.empty()) {
    try {
      auto tv = trace_vecs(trace_path, rng, nullptr);
      vecs.insert(vecs.end(), tv.begin(), tv.end());
    } catch (const std::exception& e) {
      std::cerr << "tb_sp24_dot: " << e.what() << "\n";
      return 2;
    }
  }

  Dut dut("");
  const std::vector<DotResult> got = run(dut, vecs, rng);

  std::ofstream fail;
  size_t mismatches = 0, checked = 0, flagged = 0, beats = 0;
  ResultClasses classes;
  const DotVec* first_fail = nullptr;
  for (size_t i = 0; i < vecs.size(); ++i) {
    const DotVec& v = vecs[i];
    beats += static_cast<size_t>(v.beats);
    bool ok;
    std::uint32_t expect = 0;
    if (v.invalid_meta) {  // the unit flags it; the value is not compared (PTX: undefined)
      ok = got[i].meta_err;
      ++flagged;
    } else {
      expect = golden(v, g_block, g_model);
      classes.add(v, expect);
      if (inject && checked == 0) expect ^= 1;  // corrupt the first compared value
      ok = !got[i].meta_err && got[i].d == expect;
      ++checked;
    }
    if (!ok) {
      if (!fail.is_open()) fail.open(fail_path);
      char head[160];
      std::snprintf(head, sizeof head,
                    "vector %zu fmt=%s k=%d c=%08x expected=%08x rtl=%08x meta_err=%d/%d", i,
                    format_name(v), v.beats * g_block, v.c, expect, got[i].d,
                    static_cast<int>(v.invalid_meta), static_cast<int>(got[i].meta_err));
      fail << head << " a=" << hex_list(logical_a(v, g_block)) << " b=" << hex_list(v.b) << "\n";
      if (mismatches < 5) std::cerr << "MISMATCH " << head << "\n";
      if (!first_fail) first_fail = &v;
      ++mismatches;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "rtl preset " << STC_PRESET << ", golden preset " << golden_preset << " (block "
            << g_model.block_size << ", extra bits " << g_model.extra_bits << "): " << vecs.size()
            << " dot products, " << beats << " beats in " << dut.cycles() << " cycles; " << checked
            << " compared bit for bit, " << flagged << " unordered-metadata flags checked; "
            << mismatches << " mismatches; " << secs << " s\n"
            << "results: " << classes.str() << "\n";
  if (mismatches) {
    std::cout << "failing vectors written to " << fail_path << "\n";
    if (!fst_path.empty()) {
      Dut wave(fst_path);
      std::mt19937_64 r2(seed);
      run(wave, {*first_fail}, r2);
      std::cout << "waveform of the first failing vector: " << fst_path << "\n";
    }
    return 1;
  }
  return 0;
}
