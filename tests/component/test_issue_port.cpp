// The sub-core's issue port in a mma.sync mainloop (models/kernels/tensor_core_ktile.cpp,
// KernelMapping::loop): a warp's k-tile prelude takes its sub-core's port before the
// warp's fragment loads, the warps of one sub-core in turn; a rolled k-sub loop loads each
// k-sub's fragments only after the warp's last mma of the one before, behind its own
// prelude; a kernel whose copies are in its prelude puts their bytes on the shared-memory
// port ahead of the k-tile's fragment reads. Exact cycles, derived from the parts' own
// timing (one SM of the a100 preset).
#include <catch2/catch.hpp>
#include <vector>

#include "models/kernels/tensor_core_ktile.h"
#include "tests/support/preset_env.h"
#include "tests/support/test_sm.h"

using namespace stcsim;
using stcsim::test::PresetEnv;
using stcsim::test::TestSm;

namespace {

constexpr Cycle kBarrier = 1000;

KernelMapping tile(int cta_m, int cta_n, int cta_k, LoopInstructions loop) {
  KernelMapping m;
  m.cta_m = cta_m, m.cta_n = cta_n, m.cta_k = cta_k;
  m.warp_m = 64, m.warp_n = 64, m.stages = 3;
  m.b_fragment_buffers = 2;
  m.barrier_point = "ktile_end";
  m.loop = loop;
  return m;
}

MmaKind fp16() {
  GemmOp g;
  g.dtype = Dtype::FP16;
  return g.kind();
}

// One k-tile of `k_elems` on a fresh SM from kBarrier; the CTA's warps after it.
struct KtileRun {
  KtileRun(const PresetEnv& p, const KernelMapping& m, int k_elems, double fill_bytes = 0,
           double copy_bytes = 0)
      : sm(p), t(m, fp16(), *p.smem), warps(t.fresh_warps()) {
    SmContext ctx = sm.context(p.sm);
    compute_tensor_core_ktile(ctx, t, 0, warps, k_elems, kBarrier, StallCause::Sync, fill_bytes,
                              copy_bytes, barrier_ready, mma_done);
  }
  TestSm sm;
  TensorCoreWarps t;
  std::vector<WarpState> warps;
  Cycle barrier_ready = 0, mma_done = 0;
};

}  // namespace

TEST_CASE("issue_port_one_warp_a_sub_core_shifts_the_ktile_by_its_prelude", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // 128x128 with 64x64 warp tiles: four warps, one a sub-core, each prelude on its own port,
  // so every load and mma of the k-tile moves by exactly the prelude at one a cycle.
  const KtileRun none(p, tile(128, 128, 32, {}), 32);
  LoopInstructions loop;
  loop.ktile_prelude = 117;
  const KtileRun pre(p, tile(128, 128, 32, loop), 32);
  CHECK(pre.mma_done == none.mma_done + 117);
  CHECK(pre.barrier_ready == none.barrier_ready + 117);
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(pre.warps[w].first_issue == none.warps[w].first_issue + 117);
    CHECK(pre.sm.issue[w].free_at() == kBarrier + 117);
    CHECK(pre.sm.issue[w].busy_cycles() == 117);
  }
}

TEST_CASE("issue_port_two_warps_a_sub_core_take_it_in_turn", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // 256x128: eight warps, warps w and w+4 on sub-core w. With a prelude long enough that
  // warps 0-3 have loaded and issued their one k-sub before warps 4-7 are through theirs,
  // warp w+4 runs exactly as warp w did, one prelude later: the port served warp w first
  // (the lower slot), then warp w+4.
  LoopInstructions loop;
  loop.ktile_prelude = 1000;
  const KtileRun run(p, tile(256, 128, 16, loop), 16);
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(run.sm.issue[w].free_at() == kBarrier + 2000);
    CHECK(run.sm.issue[w].busy_cycles() == 2000);
    REQUIRE(run.warps[w].last_done < kBarrier + 2000);  // done before warp w+4 loads
    CHECK(run.warps[w + 4].first_issue == run.warps[w].first_issue + 1000);
    CHECK(run.warps[w + 4].last_done == run.warps[w].last_done + 1000);
  }
  // Half the rate: each prelude takes twice the cycles.
  PresetEnv half("a100", "chooser");
  half.sm.warp_issue_per_cycle = 0.5;
  const KtileRun slow(half, tile(256, 128, 16, loop), 16);
  CHECK(slow.sm.issue[0].free_at() == kBarrier + 4000);
  CHECK(slow.warps[4].first_issue == run.warps[4].first_issue + 2000);
}

TEST_CASE("issue_port_rolled_ksub_loop_loads_after_the_last_mma", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // Two k-subs (cta_k 32 of m16n8k16). Unrolled, k-sub 1's fragments load under k-sub 0's
  // mma; rolled, warp 0's only the cycle after its last mma of k-sub 0 plus its 16 loop-top
  // instructions, on a port idle by then: so they land exactly where a fresh port would
  // put them, and k-sub 1's first mma (which waits on nothing else by then) issues there.
  const KtileRun one(p, tile(128, 128, 32, {}), 16);  // k-sub 0 alone: its last mma
  const Cycle last0 = one.warps[0].last_issue;
  LoopInstructions loop;
  loop.rolled_ksubs = true;
  loop.ksub_prelude = 16;
  const KtileRun rolled(p, tile(128, 128, 32, loop), 32);
  const KtileRun unrolled(p, tile(128, 128, 32, {}), 32);
  auto fresh = p.smem->clone_empty();
  const Cycle landed = fresh->read(last0 + 1 + 16, rolled.t.wavefronts[0][1].total());
  CHECK(rolled.warps[0].first_issue == landed);
  CHECK(unrolled.warps[0].first_issue < rolled.warps[0].first_issue);
  CHECK(rolled.mma_done > unrolled.mma_done);
  CHECK(rolled.sm.issue[0].busy_cycles() == 16);  // no k-tile prelude: only k-sub 1's
}

TEST_CASE("issue_port_copies_in_the_prelude_go_ahead_of_the_fragment_reads", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // One k-sub, four warps. A stage of 64,000 B, which holds a fresh port for `fill` cycles
  // (at the a100's fill rate): in CUTLASS's order (no prelude) behind the k-sub's fragment
  // reads, which do not move; in the harness's (copies in a 10-instruction prelude) ahead
  // of them, so every read, and every mma after it, moves by exactly those cycles.
  // The stage that landed (`fill_bytes`, CUTLASS's accounting) is not what the harness
  // charges: it charges the copies it issues (`copy_bytes`), here a different amount.
  const double landed = 64000, issued = 32000;
  const Cycle fill = p.smem->clone_empty()->fill(kBarrier, issued) - kBarrier;
  REQUIRE(fill > 10);
  const KtileRun none(p, tile(128, 128, 16, {}), 16);
  const KtileRun cutlass(p, tile(128, 128, 16, {}), 16, landed, issued);
  LoopInstructions loop;
  loop.ktile_prelude = 10;
  const KtileRun harness(p, tile(128, 128, 16, loop), 16, landed, issued);
  const KtileRun last(p, tile(128, 128, 16, loop), 16, landed, 0);  // a k-tile copying nothing
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(cutlass.warps[w].first_issue == none.warps[w].first_issue);
    CHECK(harness.warps[w].first_issue == none.warps[w].first_issue + fill);
    CHECK(last.warps[w].first_issue == none.warps[w].first_issue + 10);  // its prelude only
  }
  CHECK(harness.mma_done == none.mma_done + fill);
  CHECK(harness.sm.smem->busy_cycles() == none.sm.smem->busy_cycles() + fill);  // issued, once
}

TEST_CASE("issue_port_copy_instructions_only_where_the_k_tile_copies", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // One warp a sub-core, so each prelude shifts the k-tile by exactly its length: 13 + 104
  // where the k-tile issues copies (of a size the port takes in fewer cycles than that),
  // 13 where it issues none.
  LoopInstructions loop;
  loop.ktile_prelude = 13;
  loop.ktile_copy_instructions = 104;
  const KtileRun none(p, tile(128, 128, 16, {}), 16);
  const KtileRun copying(p, tile(128, 128, 16, loop), 16, 0, 256);
  const KtileRun idle(p, tile(128, 128, 16, loop), 16, 0, 0);
  REQUIRE(p.smem->clone_empty()->fill(kBarrier, 256) - kBarrier < 117);
  CHECK(copying.mma_done == none.mma_done + 117);
  CHECK(idle.mma_done == none.mma_done + 13);
}

TEST_CASE("issue_port_a_co_resident_cta_finds_the_port_idle_before_a_later_reservation",
          "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // Two 4-warp CTAs in slots 0 and 1 share the sub-cores (warp w of each on sub-core w).
  // CTA 0 computes a rolled two-k-sub k-tile from cycle 1000: its k-sub 1 prelude is
  // reserved hundreds of cycles ahead. CTA 1 reaches its barrier at 1100 and its 50-cycle
  // prelude must start there, in the idle stretch before that reservation.
  TestSm sm(p);
  LoopInstructions rolled;
  rolled.rolled_ksubs = true;
  rolled.ksub_prelude = 16;
  const TensorCoreWarps t0(tile(128, 128, 32, rolled), fp16(), *p.smem);
  LoopInstructions pre;
  pre.ktile_prelude = 50;
  const TensorCoreWarps t1(tile(128, 128, 32, pre), fp16(), *p.smem);
  auto w0 = t0.fresh_warps(), w1 = t1.fresh_warps();
  SmContext ctx = sm.context(p.sm);
  Cycle br = 0, done = 0;
  compute_tensor_core_ktile(ctx, t0, 0, w0, 32, 1000, StallCause::Sync, 0, 0, br, done);
  REQUIRE(sm.issue[0].free_at() > 1200);           // k-sub 1's prelude, reserved ahead
  const Cycle later = sm.issue[0].free_at() - 16;  // CTA 0's k-sub 1 run
  compute_tensor_core_ktile(ctx, t1, 1, w1, 32, 1100, StallCause::Sync, 0, 0, br, done);
  CHECK(sm.issue[0].busy_cycles() == 16 + 50);
  using S = std::pair<Cycle, Cycle>;
  CHECK(sm.issue[0].stretches() == std::vector<S>{{1100, 1150}, {later, later + 16}});
}

TEST_CASE("issue_port_stall_cycles_delay_the_warp_not_the_port", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // One warp a sub-core (128x128): a prelude of 13 instructions that ptxas spaced over 46
  // cycles moves the k-tile by 46, and holds the port 13.
  LoopInstructions loop;
  loop.ktile_prelude = 13;
  loop.ktile_prelude_cycles = 46;
  const KtileRun none(p, tile(128, 128, 16, {}), 16);
  const KtileRun pre(p, tile(128, 128, 16, loop), 16);
  CHECK(pre.mma_done == none.mma_done + 46);
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(pre.warps[w].first_issue == none.warps[w].first_issue + 46);
    CHECK(pre.sm.issue[w].busy_cycles() == 13);
    CHECK(pre.sm.issue[w].free_at() == kBarrier + 13);
  }
  // Two warps a sub-core (256x128): warp w takes the port [1000, 1013) and is through at
  // 1046; warp w+4 takes it [1013, 1026) and is through at 1013 + 46. Each warp's k-sub
  // then loads and issues as it would have at those cycles.
  const KtileRun two(p, tile(256, 128, 16, loop), 16);
  LoopInstructions one_cycle = loop;
  one_cycle.ktile_prelude_cycles = 0;  // 13 cycles: the port's turn alone
  const KtileRun counts(p, tile(256, 128, 16, one_cycle), 16);
  for (std::size_t w = 0; w < 4; ++w) {
    CHECK(two.sm.issue[w].busy_cycles() == 26);
    CHECK(counts.sm.issue[w].busy_cycles() == 26);
    CHECK(two.warps[w].first_issue >= kBarrier + 46);
    CHECK(two.warps[w + 4].first_issue >= kBarrier + 13 + 46);
    CHECK(two.warps[w].first_issue > counts.warps[w].first_issue);
  }
  // Copy cycles only where the k-tile copies.
  LoopInstructions copy = loop;
  copy.ktile_copy_instructions = 38;
  copy.ktile_copy_cycles = 58;
  const KtileRun copying(p, tile(128, 128, 16, copy), 16, 0, 256);
  const KtileRun idle(p, tile(128, 128, 16, copy), 16, 0, 0);
  REQUIRE(p.smem->clone_empty()->fill(kBarrier, 256) - kBarrier < 46 + 58);
  CHECK(copying.mma_done == none.mma_done + 46 + 58);
  CHECK(idle.mma_done == none.mma_done + 46);
}

TEST_CASE("issue_port_rolled_ksub_waits_for_its_later_fragment_group", "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // One k-sub, one warp a sub-core (128x128, 64x64 warp tiles of m16n8k16 issued by
  // columns: 8 columns of 4 mma). With ksub_rest_from 8 the first two columns' mma wait
  // only for A and those columns' B (a quarter of B's wavefronts); mma 8-31 wait for the
  // rest, landed gap + one column's wavefronts + the latency after those. The port serves
  // all of the k-sub's reads at its top either way, from the same cycle.
  auto columns = [](LoopInstructions loop) {
    KernelMapping m = tile(128, 128, 16, loop);
    m.mma_order = "columns";
    return m;
  };
  LoopInstructions rolled;
  rolled.rolled_ksubs = true;
  const KtileRun base(p, columns(rolled), 16);
  LoopInstructions rest = rolled;
  rest.ksub_rest_from = 8;
  rest.ksub_rest_gap = 500;
  const KtileRun late(p, columns(rest), 16);
  const WarpState& w = late.warps[0];
  const FragmentReads& f = late.t.wavefronts[0][0];
  REQUIRE(late.t.b_columns == 8);
  REQUIRE(f.b % 4 == 0);
  const Cycle done = base.warps[0].frag_ready;  // every read of the k-sub landed
  CHECK(w.rest_from == 8);
  CHECK(w.frag_ready == done - f.b + f.b / 4);
  const Cycle landed = w.frag_ready + 500 + f.b / 8 + p.smem->latency_cycles();
  CHECK(w.rest_ready == landed);
  CHECK(late.sm.smem->busy_cycles() == base.sm.smem->busy_cycles());
  // mma 0 issues as soon as its columns are in; mma 8-31 back to back from `landed`
  // (mma 0-7 are long done by then), the last 23 pipe intervals after it, as the base
  // run's last is 31 after its first.
  CHECK(w.first_issue == base.warps[0].first_issue - (done - w.frag_ready));
  const Cycle interval = (base.warps[0].last_issue - base.warps[0].first_issue) / 31;
  REQUIRE(w.first_issue + 8 * interval < landed);
  CHECK(w.last_issue == landed + 23 * interval);
  // Unrolled, or with one B buffer (every B already loads after the last mma), the same
  // fields do nothing.
  LoopInstructions unrolled = rest;
  unrolled.rolled_ksubs = false;
  const KtileRun u(p, columns(unrolled), 16);
  const KtileRun u0(p, columns({}), 16);
  CHECK(u.warps[0].rest_from == 0);
  CHECK(u.mma_done == u0.mma_done);
  KernelMapping one = columns(rest);
  one.b_fragment_buffers = 1;
  KernelMapping one0 = columns(rolled);
  one0.b_fragment_buffers = 1;
  const KtileRun b1(p, one, 16), b10(p, one0, 16);
  CHECK(b1.warps[0].rest_from == 0);
  CHECK(b1.mma_done == b10.mma_done);
}

TEST_CASE("issue_port_ktile_prelude_loads_after_the_last_mma_without_a_barrier",
          "[component][issue]") {
  const PresetEnv p("a100", "chooser");
  // Two k-tiles of one k-sub each with no barrier between them (the anatomy's variants
  // without kMainloopBarrier), one warp a sub-core (128x128). A k-tile loop with a prelude
  // of its own (the harness's) has the next k-tile's first ldmatrix after its prelude, and
  // the prelude after the back edge, after the previous k-tile's last mma: warp 0's second
  // k-tile loads from that mma's cycle + 1 + its 20-cycle prelude, on a port idle by then,
  // and its first mma issues when they land. Without a prelude (CUTLASS, whose mainloop
  // loads the next k-tile's first fragments under the last k-sub's mma) they load under
  // the previous k-sub's mma, earlier.
  const auto run = [&](const LoopInstructions& loop, Cycle& last0) {
    KernelMapping m = tile(128, 128, 16, loop);
    m.mainloop_parts = kMainloopFragments | kMainloopMma;
    TestSm sm(p);
    SmContext ctx = sm.context(p.sm);
    const TensorCoreWarps t(m, fp16(), *p.smem);
    auto warps = t.fresh_warps();
    Cycle br = 0, done = 0;
    compute_tensor_core_ktile(ctx, t, 0, warps, 16, kBarrier, StallCause::Sync, 0, 0, br, done);
    last0 = warps[0].last_issue;
    REQUIRE(br < last0);  // the earliest warp's first mma: the next k-tile's "barrier"
    compute_tensor_core_ktile(ctx, t, 0, warps, 16, br, StallCause::Sync, 0, 0, br, done);
    return std::make_pair(warps[0].first_issue, t.wavefronts[0][0].total());
  };
  LoopInstructions loop;
  loop.ktile_prelude = 20;
  Cycle last0 = 0, last0_cutlass = 0;
  const auto [harness, wavefronts] = run(loop, last0);
  const Cycle cutlass = run({}, last0_cutlass).first;
  const Cycle landed = p.smem->clone_empty()->read(last0 + 1 + 20, wavefronts);
  CHECK(harness == landed);
  CHECK(cutlass < last0_cutlass + 1 + p.smem->latency_cycles());
}
