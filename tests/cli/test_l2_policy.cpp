// --l2 flush|warm (issue 16, item 5; models/gpu/l2_policy.h): under flush, the default,
// a GEMM's result does not depend on what ran before it; under warm it meets the L2 the
// earlier GEMMs left. The policy is recorded in stats.json's run section.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
// Two GEMMs that leave the L2 full of their lines, dirty outputs among them, then the
// issue's 8x4096x4096 (a weight-streaming GEMM whose reads all miss when run alone).
const std::string kAlone = "--arch a100 --gemm 8x4096x4096";
const std::string kAfterTwo =
    "--arch a100 --gemm 2048x4096x1024 --gemm 1024x1024x4096 --gemm 8x4096x4096 --no-memo";
}  // namespace

TEST_CASE("l2_flush_gemm_after_others_is_identical_to_alone", "[cli][l2]") {
  const auto alone = run_stats(kAlone), after = run_stats(kAfterTwo);
  CHECK(alone["run"]["l2"] == "flush");  // the default
  REQUIRE(after["ops"].size() == 3);
  const auto& a = alone["ops"][0];
  const auto& b = after["ops"][2];
  CHECK(b["cycles"] == a["cycles"]);
  CHECK(b["dram_read_bytes"] == a["dram_read_bytes"]);
  CHECK(b["dram_write_bytes"] == a["dram_write_bytes"]);
  CHECK(b["l2_read_hit_rate"] == a["l2_read_hit_rate"]);
  // Explicit flush is the same run.
  CHECK(run_stats(kAfterTwo + " --l2 flush")["ops"][2]["cycles"] == b["cycles"]);
}

TEST_CASE("l2_warm_gemm_after_others_differs_from_alone", "[cli][l2]") {
  const auto alone = run_stats(kAlone + " --l2 warm"), after = run_stats(kAfterTwo + " --l2 warm");
  CHECK(after["run"]["l2"] == "warm");
  // Alone, warm and flush meet the same empty L2.
  CHECK(alone["ops"][0]["cycles"] == run_stats(kAlone)["ops"][0]["cycles"]);
  // After the others, its weights must evict their dirty lines: slower.
  CHECK(after["ops"][2]["cycles"].get<double>() > alone["ops"][0]["cycles"].get<double>());
}

TEST_CASE("l2_memo_repeat_is_exact_under_flush_and_keyed_by_history_under_warm", "[cli][l2]") {
  const std::string g =
      "--arch a100 --gemm 1024x1024x1024 --gemm 512x512x512 --gemm 1024x1024x1024";
  const auto flush = run_stats(g), full = run_stats(g + " --no-memo");
  CHECK(flush["ops"][2]["memoized"] == 1);
  CHECK(flush["run"]["memoize"] == true);
  CHECK(full["run"]["memoize"] == false);
  // Simulated again, the repeat takes exactly the first one's cycles.
  CHECK(full["ops"][2]["cycles"] == full["ops"][0]["cycles"]);
  CHECK(full["ops"][2]["cycles"] == flush["ops"][2]["cycles"]);
  // Under warm the third op follows a different GEMM than the first: not a repeat.
  const auto warm = run_stats(g + " --l2 warm");
  CHECK(!warm["ops"][2].contains("memoized"));
}

TEST_CASE("l2_bad_policy_is_an_input_error", "[cli][l2]") {
  const auto r = run_stcsim("run --arch a100 --gemm 64x64x64 --l2 cold -q");
  CHECK(r.status == 2);
  CHECK(r.err.find("--l2: expected flush or warm, got 'cold'") != std::string::npos);
}
