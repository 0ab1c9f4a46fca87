// The tensor-core pipeline gives the exact cycle count for N back-to-back instructions.
#include <catch2/catch.hpp>

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
  issue_ksub(pipe, kFp16, {&a, &b}, 32, 0, st);
  CHECK(std::max(a.last_done, b.last_done) == 63 * 8 + 24);
  CHECK(st.total() == 0);
  // A second k-sub on the same accumulators: the dependency is already met (32 x 8 > 24).
  issue_ksub(pipe, kFp16, {&a, &b}, 32, 0, st);
  CHECK(std::max(a.last_done, b.last_done) == 127 * 8 + 24);
}

TEST_CASE("tc_warp_scheduler_accumulator_dependency_stalls", "[tensor_core]") {
  // One warp, one accumulator: each mma waits for the previous result (latency 24).
  MmaPipeline pipe(spec(8, 24));
  WarpState w;
  w.acc_ready.assign(1, 0);
  StallCounters st;
  for (int i = 0; i < 4; ++i) issue_ksub(pipe, kFp16, {&w}, 1, 0, st);
  CHECK(w.last_done == 4 * 24);
  CHECK(st.cycles[int(StallCause::Dependency)] == 3 * (24 - 8));
}
