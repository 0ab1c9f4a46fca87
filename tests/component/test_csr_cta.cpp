// One CSR SpMM CTA on an SM whose memory answers every request a fixed time after it is
// issued: the CTA's cycles, derived by hand step by step, for the staged loop (Sputnik's,
// models/kernels/csr_spmm.cpp) and the dependent loop (independent warps, one gather in
// flight each: models/kernels/csr_warp_chains.cpp), with which requests it sends, which
// gathers hit the L1, and when.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "models/common/cycles.h"
#include "models/common/timeline.h"
#include "models/kernels/csr_plan.h"
#include "models/kernels/i_kernel.h"
#include "models/sm/cta_program.h"
#include "models/sm/request_pool.h"
#include "models/sm/sm_context.h"
#include "tests/support/preset_env.h"
#include "tests/support/test_sm.h"

using namespace stcsim;
using stcsim::test::PresetEnv;
using stcsim::test::TestSm;

namespace {

// The memory: reads and writes are done `kLatency` cycles after they are issued, their
// last byte across the SM's link after `kLink`.
constexpr Cycle kLatency = 500, kLink = 40;

struct Sent {
  Cycle at;
  bool write;
  std::size_t lines;  // L1 misses handed on as lines
  std::size_t runs;
};

// Runs the CTA to retirement as Sm::run_kernel does (advance; time the submitted
// requests and advance again at the same cycle; else on to its wake, in whole cycles).
// Returns the cycle it retired at.
Cycle run_cta(CtaProgram& cta, TestSm& sm, std::vector<Sent>& sent) {
  Cycle now = 0;
  for (int pass = 0; pass < 1000; ++pass) {
    const bool retired = cta.advance(now);
    if (!sm.to_submit.empty()) {
      for (MemRequest* r : sm.to_submit) {
        sent.push_back(Sent{now, r->write, r->lines.size(), r->runs.size()});
        r->done = now + kLatency;
        r->link_done = now + kLink;
      }
      sm.to_submit.clear();
      continue;
    }
    if (retired) return now;
    now = std::max(ceil_cycle(cta.wake()), now + 1);
  }
  FAIL("the CTA did not retire");
  return 0;
}

// W: 4 rows x 64 columns, rows of 3, 1, 0 and 2 nonzeros. Warp order (row swizzle,
// longest first): row 0 {1, 5, 20}, row 3 {5, 40}, row 1 {20}, row 2 {}.
std::shared_ptr<BlockMap> mask() {
  auto m = std::make_shared<BlockMap>();
  m->block_rows = 4;
  m->block_cols = 64;
  m->col_idx = {1, 5, 20, 20, 5, 40};
  m->row_ptr = {0, 3, 4, 4, 6};
  return m;
}

// y = x W^T for 128 tokens: one CTA of the 4 rows over the 128 columns of X^T (a 128-wide
// tile: 256 B, two L1 lines, a gathered row).
struct OneCta {
  explicit OneCta(const std::string& loop) : preset("a100", "chooser") {
    apply_override(preset.cfg, "mapping.csr_gather_loop=" + loop);
    preset.req = MappingRequest::from(preset.cfg.section("mapping").params);
    op.name = "csr";
    op.m = 128;
    op.n = 4;
    op.k = 64;
    op.dtype = Dtype::FP16;
    op.block_map = mask();
    const IKernel& kernel = KernelRegistry::get("csr_spmm");
    std::uint64_t next = 1 << 20;
    plan = kernel.plan(op, preset.env(), [&](double bytes) {
      const std::uint64_t at = next;
      next += (std::uint64_t(bytes) + 255) / 256 * 256;
      return at;
    });
  }
  PresetEnv preset;
  GemmOp op;
  KernelPlan plan;
};

}  // namespace

TEST_CASE("csr_cta_dependent_loop_runs_each_warp_as_its_own_chain", "[component][csr]") {
  OneCta c("dependent");
  REQUIRE(c.plan.launches.size() == 1);
  const KernelLaunch& launch = *c.plan.launches.front();
  REQUIRE(launch.ctas.size() == 1);
  REQUIRE(c.plan.map.cta_n == 128);
  TestSm sm(c.preset);
  SmContext ctx = sm.context(c.preset.sm);
  auto cta = launch.start_cta(launch.ctas[0], 0, ctx);
  std::vector<Sent> sent;
  const Cycle end = run_cta(*cta, sm, sent);

  const Cycle start = c.preset.sm.cta_launch_cycles;           // 200
  const Cycle smem = c.preset.smem->latency_cycles();          // 30: a shared-memory load
  const Cycle hit = c.preset.sm.l1_hit_latency_cycles;         // 33
  const Cycle alu = c.preset.sm.alu_latency_cycles;            // 4
  const Cycle nnz = csr_cycles_per_nnz(128, 16, Dtype::FP16);  // a warp's issue per nonzero
  REQUIRE(start == 200);
  REQUIRE(smem == 30);
  REQUIRE(hit == 33);
  REQUIRE(alu == 4);
  REQUIRE(nnz == 8);  // 4 FMAs a thread at 16 lanes: the FP32 pipe's 8 cycles
  // The loop's dependent chain (the harness's PTX): a column index from shared memory and
  // three address operations before a gather; the conversion and the value from shared
  // memory before the nonzero's FMAs.
  const Cycle to_gather = smem + 3 * alu, to_fmas = alu + smem;  // 42, 34
  // Every warp: its row from the swizzle array, then its row_ptr entries.
  const Cycle t_rows = start + kLatency, t_extent = t_rows + kLatency;  // 700, 1200
  // Warps 0-2 (rows 0, 3, 1): their values and indices, then the first gather (each a
  // miss: two lines); warp 3 (row 2) is empty and stores its zeros at once.
  const Cycle t_gather0 = t_extent + kLatency + to_gather;   // 1742
  const Cycle fmas0 = t_gather0 + kLatency + to_fmas + nnz;  // 2284: the FMAs issued
  // Warp 2 (row 1) is done: it stores once its last FMA's result is in. Warps 0 and 1
  // read their next column index.
  const Cycle t_store2 = fmas0 + alu;         // 2288
  const Cycle t_gather1 = fmas0 + to_gather;  // 2326
  // Warp 0's column 5 hits the L1 (warp 1 gathered it at t_gather0): in after the L1's
  // latency, and its last gather (column 20, which warp 2 gathered) hits too.
  const Cycle t_gather2_w0 = t_gather1 + hit + to_fmas + nnz + to_gather;  // 2443
  const Cycle t_store0 = t_gather2_w0 + hit + to_fmas + nnz + alu;         // 2522
  // Warp 1's column 40 misses: it waits a round trip more than warp 0, which has gone on.
  const Cycle t_store1 = t_gather1 + kLatency + to_fmas + nnz + alu;  // 2872
  CHECK(end == t_store1 + kLink);  // the last warp's store has left

  REQUIRE(sent.size() == 19);
  for (int w = 0; w < 4; ++w) {
    CHECK(sent[std::size_t(w)].at == start);
    CHECK(sent[std::size_t(4 + w)].at == t_rows);
    CHECK(sent[std::size_t(4 + w)].runs == 1);  // row_ptr[row], row_ptr[row + 1]
  }
  for (int w = 0; w < 3; ++w) {
    CHECK(sent[std::size_t(8 + w)].at == t_extent);
    CHECK(sent[std::size_t(8 + w)].runs == 2);  // the stage's values and indices
    CHECK(sent[std::size_t(12 + w)].at == t_gather0);
    CHECK(sent[std::size_t(12 + w)].lines == 2);
  }
  CHECK(sent[11].at == t_extent);
  CHECK(sent[11].write);  // warp 3's empty row
  CHECK(sent[15].at == t_store2);
  CHECK(sent[15].write);
  CHECK(sent[16].at == t_gather1);
  CHECK(sent[16].lines == 2);  // warp 1's column 40; warp 0's hit sent nothing
  CHECK(sent[17].at == t_store0);
  CHECK(sent[18].at == t_store1);
  CHECK(sm.counters.index_wait_cycles == 2 * kLatency);  // until the last warp's row_ptr
  CHECK(sm.counters.l1_sectors == 4 * (6 + 4 + 2));
  CHECK(sm.counters.l1_hit_sectors == 4 * (2 + 2));
}

TEST_CASE("csr_cta_staged_loop_gathers_a_stage_at_once", "[component][csr]") {
  OneCta c("staged");
  const KernelLaunch& launch = *c.plan.launches.front();
  TestSm sm(c.preset);
  SmContext ctx = sm.context(c.preset.sm);
  auto cta = launch.start_cta(launch.ctas[0], 0, ctx);
  std::vector<Sent> sent;
  const Cycle end = run_cta(*cta, sm, sent);

  const Cycle nnz = csr_cycles_per_nnz(128, 16, Dtype::FP16);
  const Cycle t_index = c.preset.sm.cta_launch_cycles;
  // One stage holds every nonzero: its values, indices and the four distinct rows of X^T
  // (1, 5, 20, 40) in one request, as soon as the row offsets are in.
  const Cycle t_stage = t_index + kLatency;
  // Row 0's three nonzeros on its sub-core once the stage is in; the other warps have
  // fewer on theirs.
  // Then each warp stores its registers straight to global memory (Sputnik's OutputTile):
  // no pass through shared memory (it was 2 x 1024 B / 128 B a cycle = 16 cycles).
  const Cycle t_store = t_stage + kLatency + 3 * nnz;
  CHECK(end == t_store + kLink);

  REQUIRE(sent.size() == 3);
  CHECK(sent[1].at == t_stage);
  CHECK(sent[1].runs == 6);
  CHECK(sent[1].lines == 8);  // each row of X^T once, however many warps use it
  CHECK(sent[2].at == t_store);
  CHECK(sent[2].write);
  CHECK(sm.counters.l1_hit_sectors == 0);
}
