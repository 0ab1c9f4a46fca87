// mapping.policy exhaustive (issue 13, item 5): the estimate's best candidates and the
// chooser's pick are each simulated and the fastest kept. Its result is exactly a lone
// run of the winning mapping, never slower than the chooser's, refused under --l2 warm,
// and said to be unsearched for a kernel that does not rank its mappings.
#include <catch2/catch.hpp>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

const std::string kGemm = "--arch a100 --gemm 2048x768x3072 --sparsity 2:4 --no-dense-baseline";

// The -p options that pin every key of a mapping stats.json reports.
std::string pinned(const nlohmann::json& m) {
  std::string a;
  for (const char* k : {"cta_m", "cta_n", "cta_k", "warp_m", "warp_n", "stages", "split_k",
                        "swizzle", "b_fragment_buffers"})
    a += " -p mapping." + std::string(k) + "=" + std::to_string(m[k].get<int>());
  return a + " -p mapping.smem_layout=" + m["smem_layout"].get<std::string>();
}

}  // namespace

TEST_CASE("exhaustive_keeps_the_fastest_simulated_mapping", "[cli][mapping]") {
  const auto chooser = run_stats(kGemm)["ops"][0];
  const auto fastest = run_stats(kGemm + " -p mapping.policy=exhaustive")["ops"][0];
  const std::string how = fastest["mapping"]["chosen_by"];
  INFO(how);
  CHECK(how.rfind("exhaustive: fastest of ", 0) == 0);
  // The chooser's pick is among the candidates: never slower.
  CHECK(fastest["seconds"].get<double>() <= chooser["seconds"].get<double>());
  // Each candidate ran from a flushed L2 at the first addresses, as a lone run does.
  const auto lone = run_stats(kGemm + pinned(fastest["mapping"]))["ops"][0];
  CHECK(lone["cycles"] == fastest["cycles"]);
  CHECK(lone["dram_read_bytes"] == fastest["dram_read_bytes"]);
  // With one candidate (the estimate's best) plus the chooser's pick: no faster than
  // with four.
  const auto one =
      run_stats(kGemm + " -p mapping.policy=exhaustive -p mapping.exhaustive_top=1")["ops"][0];
  CHECK(one["seconds"].get<double>() >= fastest["seconds"].get<double>());
}

TEST_CASE("exhaustive_is_refused_under_warm_l2", "[cli][mapping]") {
  const ProcResult r = run_stcsim("run " + kGemm + " -p mapping.policy=exhaustive --l2 warm");
  CHECK(r.status == 2);
  CHECK(r.err.find("mapping.policy exhaustive") != std::string::npos);
  CHECK(r.err.find("--l2 flush") != std::string::npos);
}

TEST_CASE("exhaustive_says_when_a_kernel_is_not_searched", "[cli][mapping]") {
  // h100's auto kernel for fp16 is warp_specialized_gemm, whose choice is not simulated.
  const auto op =
      run_stats("--arch h100 --gemm 1024x768x3072 -p mapping.policy=exhaustive")["ops"][0];
  const std::string how = op["mapping"]["chosen_by"];
  INFO(how);
  CHECK(how.find("warp_specialized_gemm's mapping is not searched by simulation") !=
        std::string::npos);
}
