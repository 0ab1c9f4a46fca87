// Memoized repeats (issue 18): a GEMM identical to one already simulated in the run
// reuses its result, flagged `memoized`; --no-memo simulates it again. On a real model
// the total stays within 0.5% of the full simulation.
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("memo_identical_gemm_reuses_its_result", "[cli][memo]") {
  const std::string g =
      "--arch a100 --gemm 1024x1024x1024 --gemm 512x512x512 --gemm 1024x1024x1024";
  const auto j = run_stats(g);
  REQUIRE(j["ops"].size() == 3);
  CHECK(!j["ops"][0].contains("memoized"));
  CHECK(!j["ops"][1].contains("memoized"));  // a different shape is simulated
  CHECK(j["ops"][2]["memoized"] == 1);
  CHECK(j["ops"][2]["cycles"] == j["ops"][0]["cycles"]);
  const auto full = run_stats(g + " --no-memo");
  for (const auto& op : full["ops"]) CHECK(!op.contains("memoized"));
  // The repeat, simulated, meets the flushed L2 the first one met (--l2 flush, the
  // default): the same cycles. Under --l2 warm: close, not necessarily equal.
  CHECK(full["ops"][2]["cycles"] == j["ops"][2]["cycles"]);
  const auto warm = run_stats(g + " --no-memo --l2 warm");
  CHECK(std::abs(warm["ops"][2]["cycles"].get<double>() / j["ops"][2]["cycles"].get<double>() - 1) <
        0.05);
}

TEST_CASE("memo_sparse_op_is_not_its_dense_twin", "[cli][memo]") {
  // Each 2:4 op runs right after its dense twin of the same shape: the sparse op must be
  // simulated (the pattern is in the key), the second pair reused whole.
  const auto j = run_stats("--arch a100 --sparsity 2:4 --gemm 512x512x1024 --gemm 512x512x1024");
  REQUIRE(j["ops"].size() == 2);
  CHECK(!j["ops"][0].contains("memoized"));
  CHECK(j["ops"][0]["dense_cycles"] != j["ops"][0]["cycles"]);
  CHECK(j["ops"][1]["memoized"] == 1);
  CHECK(j["ops"][1]["speedup_vs_dense"] == j["ops"][0]["speedup_vs_dense"]);
}

TEST_CASE("memo_real_model_within_half_a_percent", "[cli][memo]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  const std::string m = "--arch a100 --model ppocrv4_rec --batch 8";
  const auto memo = run_stats(m), full = run_stats(m + " --no-memo");
  int reused = 0;
  for (const auto& op : memo["ops"]) reused += op.contains("memoized");
  INFO("memoized " << reused << " of " << memo["ops"].size());
  CHECK(reused > 0);
  const double a = memo["total"]["cycles"], b = full["total"]["cycles"];
  INFO("memo " << a << " full " << b);
  CHECK(std::abs(a / b - 1) < 0.005);
}
