// --l2 flush|warm|repeat (issue 16, item 5; models/gpu/l2_policy.h): under flush, the
// default, a GEMM's result does not depend on what ran before it; under warm it meets the
// L2 the earlier GEMMs left; under repeat the L2 its own untimed run left. The policy is
// recorded in stats.json's run section.
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
  CHECK(r.err.find("--l2: expected flush, warm or repeat, got 'cold'") != std::string::npos);
  const auto ex =
      run_stcsim("run --arch a100 --gemm 64x64x64 --l2 repeat -p mapping.policy=exhaustive -q");
  CHECK(ex.status == 2);
  CHECK(ex.err.find("--l2 repeat") != std::string::npos);
}

// A benchmark loop's repeats: a GEMM whose operands fit in the L2 finds them there (its
// untimed run read them), and one whose output does not fit writes back its previous run's
// dirty output as it goes, so its DRAM writes reach the output's size.
TEST_CASE("l2_repeat_meets_what_its_own_previous_run_left", "[cli][l2]") {
  const std::string fits = "--arch a100 --gemm 1024x1024x1024 --no-memo";
  const auto flush = run_stats(fits), repeat = run_stats(fits + " --l2 repeat");
  CHECK(repeat["run"]["l2"] == "repeat");
  const double cold_reads = flush["ops"][0]["dram_read_bytes"].get<double>();
  CHECK(cold_reads >= 4.0 * 1024 * 1024);  // A and B once from DRAM, 2 MiB each
  CHECK(repeat["ops"][0]["dram_read_bytes"].get<double>() < 0.01 * cold_reads);
  CHECK(repeat["ops"][0]["l2_read_hit_rate"].get<double>() >
        flush["ops"][0]["l2_read_hit_rate"].get<double>());
  // 8192x4096 fp16 out, 64 MiB, over the a100's 40 MiB L2.
  const std::string big = "--arch a100 --gemm 8192x4096x128 --no-memo";
  const double out_bytes = 8192.0 * 4096 * 2;
  const double flush_w = run_stats(big)["ops"][0]["dram_write_bytes"].get<double>();
  const double repeat_w =
      run_stats(big + " --l2 repeat")["ops"][0]["dram_write_bytes"].get<double>();
  CHECK(flush_w < 0.9 * out_bytes);  // what the L2 still holds dirty at the end is charged to none
  CHECK(repeat_w >= 0.97 * out_bytes);
  // What a launch's CTAs leave in it (the split-K slices' arrival times of the
  // warp-specialized kernel) and in the SMs' L1s (invalidated at every launch) does not
  // carry into the timed run: an h100 split-K GEMM keeps its cycles within its L2 hits' gain
  // (it ran 0.74x when the slices found the untimed run's arrivals), a CSR SpMM its L1 hits.
  const std::string sk = "--arch h100 --gemm 64x64x32768 -p mapping.split_k=8 --no-memo";
  const double sk_flush = run_stats(sk)["ops"][0]["cycles"].get<double>();
  CHECK(run_stats(sk + " --l2 repeat")["ops"][0]["cycles"].get<double>() >= 0.97 * sk_flush);
  const std::string csr = "--arch a100 --gemm 512x512x512 --unstructured 0.9 --no-dense-baseline";
  const double l1_flush = run_stats(csr)["ops"][0]["l1_hit_rate"].get<double>();
  CHECK(run_stats(csr + " --l2 repeat")["ops"][0]["l1_hit_rate"].get<double>() ==
        Approx(l1_flush).margin(0.005));
  // Each GEMM starts from a flush: what ran before does not matter.
  const auto after =
      run_stats("--arch a100 --gemm 512x512x4096 --gemm 1024x1024x1024 --no-memo --l2 repeat");
  CHECK(after["ops"][1]["cycles"] == repeat["ops"][0]["cycles"]);
  CHECK(after["ops"][1]["dram_read_bytes"] == repeat["ops"][0]["dram_read_bytes"]);
}
