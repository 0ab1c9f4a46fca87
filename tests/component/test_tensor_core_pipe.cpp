// The tensor-core pipeline gives the exact cycle count for N back-to-back instructions.
#include <catch2/catch.hpp>

#include "models/common/gap_timeline.h"
#include "models/sm/warp_scheduler.h"
#include "models/tensor_core/mma_pipeline.h"

using namespace stcsim;

static const MmaKind kFp16{Dtype::FP16, {}};

namespace {
MmaPipelineSpec spec(int ii, int lat) {
  MmaPipelineSpec s;
  for (Dtype d : kAllDtypes) s.per_dtype[int(d)] = {ii, lat};
  s.per_dtype[int(Dtype::TF32)] = {0, 0};  // unsupported
  return s;
}
}  // namespace

TEST_CASE("tc_fp16_m16n8k16_back_to_back_exact_cycles", "[tensor_core]") {
  for (auto [ii, lat] : {std::pair{8, 24}, {4, 24}, {16, 32}, {1, 5}})
    for (int n : {1, 2, 7, 64, 1000}) {
      MmaPipeline pipe(spec(ii, lat));
      Cycle last = 0;
      for (int i = 0; i < n; ++i) last = pipe.issue(0, kFp16);
      INFO("ii " << ii << " latency " << lat << " n " << n);
      CHECK(last + lat == Cycle((n - 1) * ii + lat));  // result of the last instruction
      CHECK(pipe.busy_cycles() == Cycle(n * ii));
    }
}

TEST_CASE("tc_issue_respects_ready_time", "[tensor_core]") {
  MmaPipeline pipe(spec(8, 24));
  CHECK(pipe.issue(100, kFp16) == 100);
  CHECK(pipe.issue(0, kFp16) == 108);    // pipe busy until 108
  CHECK(pipe.issue(500, kFp16) == 500);  // idle gap: operands late
  CHECK_FALSE(pipe.supports(MmaKind{Dtype::TF32, {}}));
  CHECK(pipe.supports(MmaKind{Dtype::INT8, {}}));
}

TEST_CASE("tc_warp_scheduler_two_warps_interleave_exactly", "[tensor_core]") {
  // Two warps of 32 independent mma each on one pipe (ii 8): 64 issues back to back.
  MmaPipeline pipe(spec(8, 24));
  WarpState a, b;
  a.acc_ready.assign(32, 0);
  b.acc_ready.assign(32, 0);
  StallCounters st;
  issue_ksub(pipe, kFp16, {&a, &b}, 32, {}, 0, st);
  CHECK(std::max(a.last_done, b.last_done) == 63 * 8 + 24);
  CHECK(st.total() == 0);
  // Every instruction ties (all ready at 0): the lower slot goes first, all 32 of it.
  CHECK(a.first_issue == 0);
  CHECK(a.last_issue == 31 * 8);
  CHECK(b.first_issue == 32 * 8);
  // A second k-sub on the same accumulators: the dependency is already met (32 x 8 > 24).
  issue_ksub(pipe, kFp16, {&a, &b}, 32, {}, 0, st);
  CHECK(std::max(a.last_done, b.last_done) == 127 * 8 + 24);
}

// Two CTAs on one sub-core's pipe (ii 8, latency 24). CTA 1's warp computes its k-sub at
// its barrier: 4 mma on 2 accumulators, the second pair waiting on the first's results,
// so the pipe idles [16, 24) and ends at 40. CTA 2 reaches its barrier later in simulated
// time, but its warp's fragments were in at 10: its 2 mma take the idle stretches, 16 and
// 40 (the pipe's FIFO of before put them at 40 and 48).
TEST_CASE("tc_pipe_fills_idle_stretches_across_ctas", "[tensor_core]") {
  MmaPipeline pipe(spec(8, 24));
  StallCounters st;
  WarpState a;
  a.acc_ready.assign(2, 0);
  issue_ksub(pipe, kFp16, {&a}, 2, {}, 0, st);  // 0 8
  issue_ksub(pipe, kFp16, {&a}, 2, {}, 0, st);  // 24 32 (results of 0, 8 at 24, 32)
  CHECK(a.last_issue == 32);
  CHECK(pipe.free_at() == 40);
  WarpState b;
  b.acc_ready.assign(2, 0);
  b.frag_ready = 10;
  issue_ksub(pipe, kFp16, {&b}, 2, {}, 0, st);
  CHECK(b.first_issue == 16);
  CHECK(b.last_issue == 40);
  CHECK(pipe.busy_cycles() == 6 * 8);
}

// A warp issues in program order: its next k-sub never goes into an idle stretch before
// its own previous mma, though its operands were ready earlier.
TEST_CASE("tc_pipe_keeps_a_warps_program_order", "[tensor_core]") {
  MmaPipeline pipe(spec(8, 24));
  StallCounters st;
  WarpState other;
  other.acc_ready.assign(1, 0);
  issue_ksub(pipe, kFp16, {&other}, 1, {}, 0, st);  // [0, 8)
  WarpState w;
  w.acc_ready.assign(1, 0);
  w.frag_ready = 200;
  issue_ksub(pipe, kFp16, {&w}, 1, {}, 0, st);  // [200, 208)
  CHECK(w.last_issue == 200);
  w.frag_ready = 10;  // the next k-sub's fragments: in early
  w.acc_ready.assign(1, 0);
  issue_ksub(pipe, kFp16, {&w}, 1, {}, 0, st);
  CHECK(w.first_issue == 208);  // not in the idle [8, 200)
}

// With fragment writes on the register path and a pipe that fills idle stretches: a warp's
// mma never issue before its own writes end, nor before its own earlier mma (the k-sub is
// placed in pieces, one per warp's writes). Random stretches reserved ahead (another CTA's
// writes and reads), two warps with writes, rows and columns orders.
TEST_CASE("tc_pipe_gaps_keep_writes_and_program_order", "[tensor_core]") {
  std::uint64_t x = 7;
  const auto rnd = [&](int m) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return int((x >> 33) % std::uint64_t(m));
  };
  MmaPipelineSpec sp = spec(6, 24);
  sp.reg_operand_bytes_per_cycle = 128;
  sp.fragment_writes_on_path = true;
  for (int trial = 0; trial < 3000; ++trial) {
    MmaPipeline pipe(sp);
    Cycle t = 0;
    for (int r = 0; r < 8; ++r) {  // stretches [t, t + len) with gaps of 0-15 cycles between
      t += rnd(16);
      const int len = 5 + rnd(30);
      pipe.write_registers(t + len, 128.0 * len, 0);
      t += len;
    }
    StallCounters st;
    std::vector<WarpState> ws(2);
    for (auto& w : ws) {
      w.acc_ready.assign(8, 0);
      for (auto& a : w.acc_ready) a = rnd(200);
      w.frag_ready = rnd(150);
      w.last_issue = rnd(100);
      w.frag_write_bytes = 512 + 512 * rnd(8);
    }
    const std::vector<WarpState> before = ws;
    // Where each warp's writes go is only known inside; check the order through the
    // results: starts (accumulator ready minus latency) in program order, after last_issue.
    issue_ksub(pipe, kFp16, {&ws[0], &ws[1]}, 8, {rnd(2) ? 4 : 2, rnd(2) == 1}, 0, st);
    for (int w = 0; w < 2; ++w) {
      INFO("trial " << trial << " warp " << w);
      Cycle prev = before[std::size_t(w)].last_issue;
      for (int i = 0; i < 8; ++i) {
        const Cycle start = ws[std::size_t(w)].acc_ready[std::size_t(i)] - 24;
        CHECK(start >= prev);
        CHECK(start >= before[std::size_t(w)].frag_ready);
        prev = start;
      }
    }
  }
}

// An mma that fits an idle stretch its warp's writes do not fit waits for the writes:
// busy [0, 90) and [110, 300); the warp's 4 KiB of fragments land at 100 (32 cycles of
// writes at 128 B/clk: after 300, [300, 332)); its first mma (1280 B, 10 cycles) would fit
// [100, 110) but issues at 332.
TEST_CASE("tc_pipe_mma_follows_its_own_writes", "[tensor_core]") {
  MmaPipelineSpec sp = spec(6, 24);
  sp.reg_operand_bytes_per_cycle = 128;
  sp.fragment_writes_on_path = true;
  MmaPipeline pipe(sp);
  pipe.write_registers(90, 128.0 * 90, 0);
  pipe.write_registers(300, 128.0 * 190, 0);
  WarpState w;
  w.acc_ready.assign(8, 0);
  w.frag_ready = 100;
  w.frag_write_bytes = 4096;
  StallCounters st;
  issue_ksub(pipe, kFp16, {&w}, 8, {4, false}, 0, st);
  CHECK(w.first_issue == 332);
}

// The register operand path: one warp's 2 x 4 warp tile (8 accumulators, row by row) on a
// pipe of ii 6 reading 128 B of register operands a cycle. An f16 m16n8k16 reads its f32
// accumulators (16 x 8 x 4 = 512 B), its A fragment (16 x 16 x 2 = 512 B) unless the
// previous mma of its row read it, and its B fragment (16 x 8 x 2 = 256 B) unless the
// warp tile is one tile wide: a row's first mma 1280 B = 10 cycles, the others 768 B = 6.
TEST_CASE("tc_register_operand_path_charges_unreused_fragments", "[tensor_core]") {
  MmaPipelineSpec s = spec(6, 24);
  s.reg_operand_bytes_per_cycle = 128;
  StallCounters st;
  {
    MmaPipeline pipe(s);
    WarpState w;
    w.acc_ready.assign(8, 0);
    issue_ksub(pipe, kFp16, {&w}, 8, {4, false}, 0, st);  // starts 0 10 16 22 | 28 38 44 50
    CHECK(w.first_issue == 0);
    CHECK(w.last_issue == 50);
    CHECK(pipe.busy_cycles() == 56);
  }
  {
    MmaPipeline pipe(s);
    WarpState w;
    w.acc_ready.assign(8, 0);
    // One tile wide: after the first (1280 B = 10), B reused and A new: 1024 B = 8 each.
    issue_ksub(pipe, kFp16, {&w}, 8, {1, false}, 0, st);
    CHECK(w.last_issue == 10 + 6 * 8);
  }
  {
    MmaPipeline pipe(s);
    WarpState w;
    w.acc_ready.assign(8, 0);
    issue_ksub(pipe, kFp16, {&w}, 8, {}, 0, st);  // operands held: 512 B = 4 < ii 6
    CHECK(w.last_issue == 7 * 6);
  }
  {
    // By columns (runs of 2 sharing B, the harness's 2:4 order): a column's first mma 1280 B
    // = 10, its second (A new, B reused) 1024 B = 8: starts 0 10 | 18 28 | 36 46 | 54 64.
    MmaPipeline pipe(s);
    WarpState w;
    w.acc_ready.assign(8, 0);
    issue_ksub(pipe, kFp16, {&w}, 8, {2, true}, 0, st);
    CHECK(w.last_issue == 64);
  }
  {
    // Serpentine rows of 4 (CUTLASS's order): the second row's first mma reuses the first
    // row's last B, so it reads accumulators and A (1024 B = 8): 0 10 16 22 | 28 36 42 48.
    MmaPipeline pipe(s);
    WarpState w;
    w.acc_ready.assign(8, 0);
    issue_ksub(pipe, kFp16, {&w}, 8, {4, false, true}, 0, st);
    CHECK(w.last_issue == 48);
  }
  // mma.sp m16n8k32 2:4: A compressed to 512 B plus 64 B of metadata (2 bits a kept element),
  // B 32 x 8 x 2 = 512 B; the pipe's interval (ii 6 here) is the floor.
  const MmaKind sp{Dtype::FP16, {2, 4}};
  s.sparse_patterns = {{2, 4}};
  MmaPipeline sparse(s);
  CHECK(sparse.interval_with_reuse(sp, 0) == Approx((512.0 + 512 + 64 + 512) / 128));
  CHECK(sparse.interval_with_reuse(sp, ITensorCore::kReuseA) == Approx((512.0 + 512) / 128));
  CHECK(sparse.interval_with_reuse(sp, ITensorCore::kReuseA | ITensorCore::kReuseB) == 6);
  // No path: every kind at its interval.
  CHECK(MmaPipeline(spec(6, 24)).interval_with_reuse(kFp16, 0) == 6);
}

// Fragment writes on the register path (128 B/clk): 1024 B of ldmatrix results take 8
// cycles ending as they land. On an idle path they fit before the landing and the warp's
// first mma issues as the fragment lands; behind a k-sub's reads (the path busy until 56)
// they queue, 56 -> 64, and the next k-sub's first mma issues at 64, not 56.
TEST_CASE("tc_register_path_carries_fragment_writes", "[tensor_core]") {
  MmaPipelineSpec s = spec(6, 24);
  s.reg_operand_bytes_per_cycle = 128;
  s.fragment_writes_on_path = true;
  StallCounters st;
  {
    MmaPipeline pipe(s);
    CHECK(pipe.write_registers(100, 1024, 0) == 92);  // occupies [92, 100): idle from 0 to 92
    CHECK(pipe.free_at() == 100);
    WarpState w;
    w.acc_ready.assign(8, 0);
    w.frag_ready = 100;
    issue_ksub(pipe, kFp16, {&w}, 8, {4, false}, 0, st);  // 100 110 116 122 | 128 ...
    CHECK(w.first_issue == 100);
    CHECK(w.last_issue == 150);
  }
  for (const bool on : {true, false}) {
    MmaPipelineSpec t = s;
    t.fragment_writes_on_path = on;
    MmaPipeline pipe(t);
    WarpState w;
    w.acc_ready.assign(8, 0);
    issue_ksub(pipe, kFp16, {&w}, 8, {4, false}, 0, st);  // the path busy until 56
    CHECK(pipe.write_registers(30, 1024, 0) == 0);        // landed during those reads: no idle
    w.frag_ready = 30;
    issue_ksub(pipe, kFp16, {&w}, 8, {4, false}, 0, st);
    INFO("fragment writes on the path: " << on);
    CHECK(w.first_issue == (on ? 64 : 56));
    CHECK(pipe.busy_cycles() == (on ? 120 : 112));
  }
  CHECK(MmaPipeline(s).charges_fragment_writes());
  // Without a register path the switch charges nothing.
  MmaPipelineSpec u = spec(6, 24);
  u.fragment_writes_on_path = true;
  MmaPipeline free_path(u);
  CHECK_FALSE(free_path.charges_fragment_writes());
  CHECK(free_path.write_registers(100, 1024, 0) == 0);
  CHECK(free_path.free_at() == 0);
}

// Two warps on one pipe, each writing 1024 B of fragments (8 cycles at 128 B/clk) before
// its 2 x 4 warp tile (8 mma: 56 cycles, as above). w0's land at 62: its writes take
// [54, 62) on the idle path and its mma issue 62 .. 112 (free at 118). w1's landing at 174
// do not hold w0 back: they take [166, 174) and w1 issues 174 .. 224. Landing at 70, during
// w0's reads, they queue behind them: [118, 126), and w1 issues from 126.
TEST_CASE("tc_fragment_writes_go_before_each_warps_own_first_mma", "[tensor_core]") {
  MmaPipelineSpec s = spec(6, 24);
  s.reg_operand_bytes_per_cycle = 128;
  s.fragment_writes_on_path = true;
  for (const auto& [w1_lands, w1_first] : {std::pair{174.0, 174.0}, {70.0, 126.0}}) {
    MmaPipeline pipe(s);
    WarpState w0, w1;
    w0.acc_ready.assign(8, 0);
    w1.acc_ready.assign(8, 0);
    w0.frag_ready = 62, w1.frag_ready = w1_lands;
    w0.frag_write_bytes = w1.frag_write_bytes = 1024;
    w0.frag_cause = w1.frag_cause = StallCause::CtaBoundary;
    StallCounters st;
    issue_ksub(pipe, kFp16, {&w0, &w1}, 8, {4, false}, 0, st);
    INFO("w1's fragments land at " << w1_lands);
    CHECK(w0.first_issue == 62);
    CHECK(w0.last_issue == 112);
    CHECK(w1.first_issue == w1_first);
    CHECK(w1.last_issue == w1_first + 50);
    // The idle path before each warp's writes is its fragments' wait: 54, then 48 or 0.
    CHECK(st.cycles[int(StallCause::CtaBoundary)] == (w1_lands > 126 ? 54 + 48 : 54));
  }
}

TEST_CASE("tc_warp_scheduler_accumulator_dependency_stalls", "[tensor_core]") {
  // One warp, one accumulator: each mma waits for the previous result (latency 24).
  MmaPipeline pipe(spec(8, 24));
  WarpState w;
  w.acc_ready.assign(1, 0);
  StallCounters st;
  for (int i = 0; i < 4; ++i) issue_ksub(pipe, kFp16, {&w}, 1, {}, 0, st);
  CHECK(w.last_done == 4 * 24);
  CHECK(st.cycles[int(StallCause::Dependency)] == 3 * (24 - 8));
}

namespace {
// The warp scheduler as first written: one instruction at a time, the warp whose next
// instruction is ready earliest (ties to the lower slot), the pipe asked per issue; the
// pipe (a GapTimeline of the kind's interval) places each in the earliest idle stretch
// from its ready cycle, after the k-sub's previous instruction and its own warp's. The
// series form issue_ksub takes must give the same cycles and stalls (issue 18).
void issue_ksub_reference(GapTimeline& pipe, double ii, int lat,
                          const std::vector<WarpState*>& warps, int n, Cycle not_before,
                          StallCounters& stalls) {
  const int nw = int(warps.size());
  std::vector<int> next(std::size_t(nw), 0);
  Cycle prev = 0;  // the k-sub's previous start
  for (int issued = 0; issued < nw * n; ++issued) {
    int pick = -1;
    Cycle best = 0;
    for (int w = 0; w < nw; ++w) {
      if (next[std::size_t(w)] >= n) continue;
      const Cycle r = std::max(warps[std::size_t(w)]->frag_ready,
                               warps[std::size_t(w)]->acc_ready[std::size_t(next[std::size_t(w)])]);
      if (pick < 0 || r < best) {
        pick = w;
        best = r;
      }
    }
    WarpState& ws = *warps[std::size_t(pick)];
    const auto i = std::size_t(next[std::size_t(pick)]++);
    const Cycle free_before = std::max(pipe.free_at(), not_before);
    const Cycle t = pipe.reserve(std::max({best, ws.last_issue, prev}), ii);
    prev = t;
    if (t > free_before)
      stalls.add(ws.acc_ready[i] > ws.frag_ready ? StallCause::Dependency : ws.frag_cause,
                 t - free_before);
    if (i == 0) ws.first_issue = t;
    ws.last_issue = t;
    ws.acc_ready[i] = t + lat;
    ws.last_done = std::max(ws.last_done, t + lat);
  }
}
}  // namespace

TEST_CASE("tc_warp_scheduler_series_equals_one_at_a_time", "[tensor_core]") {
  // Random fragment and accumulator readiness (fractional cycles, as shared-memory reads
  // give), 1 to 5 warps, several k-subs in a row, random intervals, the next k-sub's
  // fragments often in before the pipe's last reservation ends (idle stretches to fill):
  // every warp's cycles, the pipe and the stall counters must match the reference exactly.
  std::uint64_t x = 42;
  const auto rnd = [&](int m) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return int((x >> 33) % std::uint64_t(m));
  };
  int cases = 0;
  for (int nw = 1; nw <= 5; ++nw)
    for (int n : {1, 3, 32}) {
      auto sp = spec(8, 30);
      sp.per_dtype[int(Dtype::FP16)].ii = 1 + rnd(16);
      MmaPipeline a(sp);
      GapTimeline b;
      std::vector<WarpState> wa(static_cast<std::size_t>(nw)), wb;
      for (auto& w : wa) w.acc_ready.assign(std::size_t(n), 0);
      std::vector<WarpState*> pa, pb;
      Cycle clock = 0;
      StallCounters sa, sb;
      for (int sub = 0; sub < 20; ++sub) {
        for (auto& w : wa) {
          // Coarse values half the time so that warps tie (the lower slot must win).
          w.frag_ready = clock + (rnd(2) ? rnd(2) * 8.0 : rnd(400) / 3.0);
          w.frag_cause = rnd(2) ? StallCause::Operand : StallCause::Global;
        }
        wb = wa;
        pa.clear();
        pb.clear();
        for (std::size_t w = 0; w < wa.size(); ++w) {
          pa.push_back(&wa[w]);
          pb.push_back(&wb[w]);
        }
        const Cycle not_before = clock + rnd(50);
        issue_ksub(a, kFp16, pa, n, {}, not_before, sa);
        issue_ksub_reference(b, sp.per_dtype[int(Dtype::FP16)].ii, 30, pb, n, not_before, sb);
        for (std::size_t w = 0; w < wa.size(); ++w) {
          INFO("warps " << nw << " n " << n << " k-sub " << sub << " warp " << w);
          CHECK(wa[w].first_issue == wb[w].first_issue);
          CHECK(wa[w].last_issue == wb[w].last_issue);
          CHECK(wa[w].last_done == wb[w].last_done);
          CHECK(wa[w].acc_ready == wb[w].acc_ready);
          ++cases;
        }
        CHECK(a.free_at() == b.free_at());
        CHECK(a.busy_cycles() == b.busy_cycles());
        for (int c = 0; c < int(StallCause::kCount); ++c)
          CHECK(sa.cycles[std::size_t(c)] == sb.cycles[std::size_t(c)]);
        wa = wb;
        clock = a.free_at() + rnd(200) - 100;  // before or after the last results
      }
    }
  CHECK(cases == 15 * 20 * 3);
}
