// Co-simulation of rtl/src/sp24_dot.sv (Verilated) against the C++ golden model
// (models/numerics mma_dot under the preset the RTL was generated from), bit for bit.
//
//   tb_sp24_dot [--vectors N] [--seed S] [--trace FILE] [--fail-file F] [--fst F]
//               [--inject-fail] [--golden-preset NAME]
//
// --vectors: random dot products (fp16, bf16 and 1/8 s8, 1..4 beats of STC block size logical K;
//   never all zero; subnormals, +-0, +-inf, NaN, max finite and random bit patterns mixed
//   in; ~1% carry an unordered metadata nibble, checked only for the error flag).
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
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vsp24_dot.h"
#include "models/numerics/accumulation_model.h"
#include "models/numerics/mma_dot.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "workloads/trace/trace.h"

#ifndef STC_PRESET
#error "STC_PRESET must name the preset rtl/ was generated from"
#endif

namespace num = stcsim::numerics;

namespace {

num::AccumulationModel g_model;  // the golden model's accumulation (the RTL's preset)
int g_block = 8;                 // logical products per beat (the RTL preset's block size)

struct Vec {
  bool bf16 = false;
  bool int8 = false;  // s8 A/B in the low bytes, s32 C and D (mma_dot_int)
  int beats = 1;
  std::vector<std::uint32_t> kept;    // beats * block/2 kept A values
  std::vector<std::uint8_t> nibbles;  // beats * block/4
  std::vector<std::uint32_t> b;       // beats * block
  std::uint32_t c = 0;
  bool invalid_meta = false;
};

struct Result {
  std::uint32_t d = 0;
  bool meta_err = false;
};

// ---- bit packing into Verilator ports of any width
template <class T>
void put(T& port, int lsb, int width, std::uint64_t v) {
  const std::uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
  port = static_cast<T>((static_cast<std::uint64_t>(port) & ~mask) | ((v << lsb) & mask));
}
template <std::size_t N>
void put(VlWide<N>& port, int lsb, int width, std::uint64_t v) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const std::uint32_t m = 1u << (bit % 32);
    if ((v >> i) & 1) {
      port[bit / 32] |= m;
    } else {
      port[bit / 32] &= ~m;
    }
  }
}

std::vector<std::uint32_t> logical_a(const Vec& v) {
  std::vector<std::uint32_t> a(static_cast<size_t>(v.beats * g_block), 0);
  for (size_t g = 0; g < v.nibbles.size(); ++g) {
    a[4 * g + (v.nibbles[g] & 3)] = v.kept[2 * g];
    a[4 * g + ((v.nibbles[g] >> 2) & 3)] = v.kept[2 * g + 1];
  }
  return a;
}

std::uint32_t golden(const Vec& v) {
  const auto a = logical_a(v);
  if (v.int8) {
    std::vector<std::int32_t> ai, bi;
    for (auto x : a) ai.push_back(static_cast<std::int8_t>(x & 0xFF));
    for (auto x : v.b) bi.push_back(static_cast<std::int8_t>(x & 0xFF));
    return static_cast<std::uint32_t>(num::mma_dot_int(
        ai.data(), bi.data(), static_cast<int>(ai.size()), static_cast<std::int32_t>(v.c)));
  }
  return num::mma_dot(v.bf16 ? num::FloatFormat::BF16 : num::FloatFormat::FP16, a.data(),
                      v.b.data(), v.beats * g_block, v.c, g_model);
}

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

void drive_beat(Vsp24_dot& t, const Vec& v, int beat) {
  const int kept = g_block / 2, groups = g_block / 4;
  t.in_first = beat == 0;
  t.in_last = beat == v.beats - 1;
  t.in_bf16 = v.bf16;
  t.in_int8 = v.int8;
  t.in_c = v.c;
  for (int i = 0; i < kept; ++i) put(t.in_a, 16 * i, 16, v.kept[beat * kept + i]);
  for (int g = 0; g < groups; ++g) put(t.in_meta, 4 * g, 4, v.nibbles[beat * groups + g]);
  for (int j = 0; j < g_block; ++j) put(t.in_b, 16 * j, 16, v.b[beat * g_block + j]);
}

// Streams the vectors through the DUT, back to back, with random input bubbles and
// output back-pressure; returns one result per vector, in order.
std::vector<Result> run(Dut& dut, const std::vector<Vec>& vecs, std::mt19937_64& rng) {
  std::vector<Result> out;
  out.reserve(vecs.size());
  size_t vi = 0;
  int beat = 0;
  Vsp24_dot& t = dut.top();
  std::uint64_t idle = 0;
  while (out.size() < vecs.size()) {
    const std::uint64_t r = rng();
    const bool offer = vi < vecs.size() && (r & 15) != 0;  // ~6% bubbles
    t.in_valid = offer;
    if (offer) drive_beat(t, vecs[vi], beat);
    t.out_ready = ((r >> 8) & 7) != 0;  // ~12% back-pressure
    t.clk = 0;
    t.eval();
    const bool accepted = offer && t.in_ready;
    if (t.out_valid && t.out_ready) {
      out.push_back({t.out_d, t.out_meta_err != 0});
      idle = 0;
    } else if (++idle > 1000) {
      std::cerr << "tb_sp24_dot: no output for 1000 cycles (pipeline hung)\n";
      std::exit(1);
    }
    dut.step();
    if (accepted && ++beat == vecs[vi].beats) {
      beat = 0;
      ++vi;
    }
  }
  return out;
}

// ---- random operands
std::uint32_t special16(bool bf16, std::mt19937_64& rng) {
  const std::uint32_t s = static_cast<std::uint32_t>(rng() & 1) << 15;
  const std::uint32_t inf = bf16 ? 0x7F80 : 0x7C00;
  switch (rng() % 8) {
    case 0:
      return s;  // +-0
    case 1:
      return s | inf;  // +-inf
    case 2:
      return inf | 0x1 | static_cast<std::uint32_t>(rng() & (bf16 ? 0x3F : 0x1FF));  // NaN
    case 3:
      return s | (inf - 1);  // +-max finite
    case 4:
      return s | 1;  // smallest subnormal
    case 5:
      return s | static_cast<std::uint32_t>(rng() & (bf16 ? 0x7F : 0x3FF));  // subnormal
    case 6:
      return s | (bf16 ? 0x0080u : 0x0400u);  // smallest normal
    default:
      return s | (bf16 ? 0x3F80u : 0x3C00u);  // 1.0
  }
}

// A finite nonzero value: exponent field in [lo, hi], random mantissa and sign.
std::uint32_t finite16(bool bf16, int lo, int hi, std::mt19937_64& rng) {
  const int mbits = bf16 ? 7 : 10;
  const int e = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
  std::uint32_t m = static_cast<std::uint32_t>(rng() & ((1u << mbits) - 1));
  if (e == 0 && m == 0) m = 1;
  return (static_cast<std::uint32_t>(rng() & 1) << 15) | (static_cast<std::uint32_t>(e) << mbits) |
         m;
}

enum class Mode { Similar, Wide, Bits, Special, Tiny, Cancel };

std::uint32_t value16(bool bf16, Mode mode, int center, std::mt19937_64& rng) {
  const int emax = bf16 ? 254 : 30;
  if (rng() % 20 == 0) return (rng() & 1) ? 0x8000u : 0u;  // ~5% zeros
  switch (mode) {
    case Mode::Similar:
    case Mode::Tiny:
    case Mode::Cancel:
      return finite16(bf16, std::max(1, center - 3), std::min(emax, center + 3), rng);
    case Mode::Wide:
      return finite16(bf16, 0, emax, rng);
    case Mode::Bits:
      return static_cast<std::uint32_t>(rng() & 0xFFFF);
    case Mode::Special:
      return rng() % 4 == 0 ? special16(bf16, rng) : finite16(bf16, 0, emax, rng);
  }
  return 0;
}

std::uint32_t value32(Mode mode, std::mt19937_64& rng) {
  const std::uint32_t s = static_cast<std::uint32_t>(rng() & 1) << 31;
  const std::uint32_t m = static_cast<std::uint32_t>(rng() & 0x7FFFFF);
  switch (rng() % 16) {
    case 0:
      return s;  // +-0
    case 1:
      return s | m;  // subnormal (or 0)
    default:
      break;
  }
  if (mode == Mode::Special && rng() % 3 == 0) {
    switch (rng() % 4) {
      case 0:
        return s | 0x7F800000u;
      case 1:
        return 0x7FC00000u | m;
      case 2:
        return s | 0x7F7FFFFFu;
      default:
        return s | 0x00800000u;
    }
  }
  if (mode == Mode::Bits) return static_cast<std::uint32_t>(rng());
  const int e = mode == Mode::Similar ? 127 - 20 + static_cast<int>(rng() % 40)
                                      : 1 + static_cast<int>(rng() % 254);
  return s | (static_cast<std::uint32_t>(e) << 23) | m;
}

const std::uint8_t kOrdered[6] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};

std::uint32_t value8(std::mt19937_64& rng) {
  static const std::uint32_t kEdge[] = {0x00, 0x80, 0x7F, 0x81, 0xFF, 0x01};
  return rng() % 8 == 0 ? kEdge[rng() % 6] : static_cast<std::uint32_t>(rng() & 0xFF);
}

// s8 operands (edges -128, 127, -1, 0 mixed in) and an s32 C near the wrap-around edges.
Vec random_int8_vec(std::mt19937_64& rng) {
  Vec v;
  v.int8 = true;
  v.beats = 1 + static_cast<int>(rng() % 4);
  const int kept = v.beats * g_block / 2, groups = v.beats * g_block / 4;
  for (int i = 0; i < kept; ++i) v.kept.push_back(value8(rng));
  for (int j = 0; j < v.beats * g_block; ++j) v.b.push_back(value8(rng));
  for (int g = 0; g < groups; ++g) v.nibbles.push_back(kOrdered[rng() % 6]);
  switch (rng() % 4) {
    case 0:
      v.c = 0x7FFFFFFFu - static_cast<std::uint32_t>(rng() % 100000);
      break;
    case 1:
      v.c = 0x80000000u + static_cast<std::uint32_t>(rng() % 100000);
      break;
    default:
      v.c = static_cast<std::uint32_t>(rng());
      break;
  }
  if ((v.kept[0] | v.kept[kept - 1]) == 0) v.kept[0] = 1;  // never all zero
  if ((v.b[0] | v.b[1]) == 0) v.b[0] = 0x80;
  return v;
}

Vec random_vec(std::mt19937_64& rng) {
  if (rng() % 8 == 0) return random_int8_vec(rng);
  Vec v;
  v.bf16 = rng() & 1;
  v.beats = 1 + static_cast<int>(rng() % 4);
  const unsigned pick = rng() % 100;
  const Mode mode = pick < 45   ? Mode::Similar
                    : pick < 65 ? Mode::Wide
                    : pick < 75 ? Mode::Bits
                    : pick < 85 ? Mode::Special
                    : pick < 92 ? Mode::Tiny
                                : Mode::Cancel;
  if (mode == Mode::Tiny) v.bf16 = true;  // products near fp32's subnormal range
  const int center = mode == Mode::Tiny ? 1 + static_cast<int>(rng() % 30)
                     : v.bf16           ? 100 + static_cast<int>(rng() % 56)
                                        : 5 + static_cast<int>(rng() % 21);
  const int kept = v.beats * g_block / 2, groups = v.beats * g_block / 4;
  for (int i = 0; i < kept; ++i) v.kept.push_back(value16(v.bf16, mode, center, rng));
  for (int j = 0; j < v.beats * g_block; ++j) v.b.push_back(value16(v.bf16, mode, center, rng));
  for (int g = 0; g < groups; ++g) v.nibbles.push_back(kOrdered[rng() % 6]);
  v.c = value32(mode, rng);
  if (mode == Mode::Tiny) v.c = (rng() % 2) ? static_cast<std::uint32_t>(rng() & 0x807FFFFF) : 0u;
  if (mode == Mode::Cancel) {  // the two products of each group cancel exactly
    for (int g = 0; g < groups; ++g) {
      const int base = (g / (g_block / 4)) * g_block + 4 * (g % (g_block / 4));
      const int i0 = v.nibbles[g] & 3, i1 = v.nibbles[g] >> 2;
      v.kept[2 * g + 1] = v.kept[2 * g];
      v.b[base + i1] = v.b[base + i0] ^ 0x8000u;
    }
    if (rng() % 2) v.c = (rng() % 2) ? 0x80000000u : 0u;
    if (rng() % 4 == 0) v.b[rng() % v.b.size()] ^= 1;  // a small residue: heavy cancellation
  }
  if (rng() % 100 == 0) {  // an unordered nibble somewhere
    std::uint8_t n;
    do {
      n = static_cast<std::uint8_t>(rng() & 15);
    } while ((n & 3) < (n >> 2));
    v.nibbles[rng() % v.nibbles.size()] = n;
    v.invalid_meta = true;
  }
  // never all zero: at least one nonzero A and one nonzero B
  auto nonzero = [](const std::vector<std::uint32_t>& x) {
    for (auto e : x)
      if ((e & 0x7FFF) != 0) return true;
    return false;
  };
  if (!nonzero(v.kept)) v.kept[0] = v.bf16 ? 0x3F80 : 0x3C00;
  if (!nonzero(v.b)) v.b[0] = v.bf16 ? 0x3F80 : 0x3C00;
  return v;
}

// Every row of every 2:4 fp16 op of the trace, B random activations (fp16, |x| ~ 2^-4..2^3).
std::vector<Vec> trace_vecs(const std::string& path, std::mt19937_64& rng, size_t* groups_out) {
  const stcsim::workloads::Trace tr = stcsim::workloads::read_trace(path);
  std::vector<Vec> vecs;
  size_t groups_total = 0, ops = 0;
  for (const auto& op : tr.ops) {
    if (op.sparsity != "2:4" || op.values_dtype != "fp16" || op.values.empty()) continue;
    const stcsim::sparse::CompressedNm c = op.compressed();
    ++ops;
    const int gpr = c.groups_per_row();
    const int gpb = g_block / 4;
    const int beats = (gpr + gpb - 1) / gpb;
    for (int r = 0; r < c.rows; ++r) {
      Vec v;
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

std::string hex_list(const std::vector<std::uint32_t>& x) {
  std::string s;
  char buf[16];
  for (size_t i = 0; i < x.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%04x", i ? "," : "", x[i]);
    s += buf;
  }
  return s;
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

  std::vector<Vec> vecs;
  vecs.reserve(static_cast<size_t>(n_random));
  for (long long i = 0; i < n_random; ++i) vecs.push_back(random_vec(rng));
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
  const std::vector<Result> got = run(dut, vecs, rng);

  std::ofstream fail;
  size_t mismatches = 0, checked = 0, flagged = 0, beats = 0;
  size_t n_int8 = 0, n_nan = 0, n_inf = 0, n_zero = 0, n_sub = 0,
         n_max = 0;  // classes of the results
  const Vec* first_fail = nullptr;
  for (size_t i = 0; i < vecs.size(); ++i) {
    const Vec& v = vecs[i];
    beats += static_cast<size_t>(v.beats);
    bool ok;
    std::uint32_t expect = 0;
    if (v.invalid_meta) {  // the unit flags it; the value is not compared (PTX: undefined)
      ok = got[i].meta_err;
      ++flagged;
    } else {
      expect = golden(v);
      n_int8 += v.int8;
      const std::uint32_t e = v.int8 ? 1 : (expect >> 23) & 0xFF, mant = expect & 0x7FFFFF;
      n_nan += e == 0xFF && mant != 0;
      n_inf += e == 0xFF && mant == 0;
      n_zero += e == 0 && mant == 0;
      n_sub += e == 0 && mant != 0;
      n_max += (expect & 0x7FFFFFFF) == 0x7F7FFFFF;
      if (inject && checked == 0) expect ^= 1;  // corrupt the first compared value
      ok = !got[i].meta_err && got[i].d == expect;
      ++checked;
    }
    if (!ok) {
      if (!fail.is_open()) fail.open(fail_path);
      char head[160];
      std::snprintf(head, sizeof head,
                    "vector %zu fmt=%s k=%d c=%08x expected=%08x rtl=%08x meta_err=%d/%d", i,
                    v.int8   ? "s8"
                    : v.bf16 ? "bf16"
                             : "fp16",
                    v.beats * g_block, v.c, expect, got[i].d, static_cast<int>(v.invalid_meta),
                    static_cast<int>(got[i].meta_err));
      fail << head << " a=" << hex_list(logical_a(v)) << " b=" << hex_list(v.b) << "\n";
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
            << "results: " << n_int8 << " s8 (s32 results), fp32: " << n_nan << " NaN, " << n_inf
            << " inf, " << n_max << " max finite, " << n_zero << " zero, " << n_sub
            << " subnormal, " << checked - n_int8 - n_nan - n_inf - n_zero - n_sub
            << " other finite\n";
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
