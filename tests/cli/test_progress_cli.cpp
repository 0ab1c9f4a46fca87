// Progress on long commands (issue 17, item 3): `run`, `crossover` and `validate` report
// done/total and time left on stderr, a quick run prints nothing, and -q silences them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("cli_run_progress_counts_gemms_with_their_twins", "[cli][progress]") {
  // Two GEMMs, each 2:4 with its dense twin: four simulated GEMMs.
  const auto r = run_stcsim(
      "run --arch a100 --gemm 256x256x256 --gemm 512x256x256 --sparsity 2:4 -q --progress");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("1/4 GEMMs") && Catch::Contains("4/4 GEMMs, elapsed"));
  CHECK_THAT(r.err, !Catch::Contains("failed"));
}

TEST_CASE("cli_quick_run_prints_no_progress", "[cli][progress]") {
  const auto r = run_stcsim("run --arch a100 --gemm 256x256x256 --gemm 512x256x256");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
}

TEST_CASE("cli_crossover_progress_and_quiet", "[cli][progress][crossover]") {
  const std::string d = temp_dir("crossover_progress");
  const std::string args =
      "crossover --arch a100 --gemm 256x256x512 --pattern block:32x32 --points 0.5,0.9 --out " + d;
  const auto r = run_stcsim(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("3/3 simulations"));  // the dense run and two points
  const auto q = run_stcsim(args + " -q");
  REQUIRE(q.status == 0);
  CHECK_THAT(q.err, !Catch::Contains("simulations"));
  std::filesystem::remove_all(d);
}
