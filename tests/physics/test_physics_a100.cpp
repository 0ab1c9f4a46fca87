// Physics checks on the A100 preset: nothing exceeds its peak, a big GEMM gets close
// to it, a memory-bound GEMM is bound by DRAM bandwidth, more work never takes less
// time, and the simulator is deterministic.
#include <catch2/catch.hpp>

#include "tests/physics/monotone_in_size.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("physics_a100_fp16_8192_cubed_within_peak_and_above_75pct", "[physics]") {
  const auto j = run_stats("--arch a100 --gemm 8192x8192x8192 --dtype fp16");
  const auto& op = j["ops"][0];
  const double peak = op["peak_tflops"];
  CHECK(peak == Approx(108 * 1024 * 2 * 1.41e9 / 1e12).epsilon(1e-6));
  const double t = op["tflops"];
  INFO("achieved " << t << " of " << peak << " TFLOP/s");
  CHECK(t <= peak);
  CHECK(t >= 0.75 * peak);
  CHECK(op["utilization"]["tensor"].get<double>() <= 1.0);
  for (const char* r : {"smem", "l2", "dram", "l2_link"})
    CHECK(op["utilization"][r].get<double>() <= 1.0 + 1e-9);
  CHECK(op["limiter"] == "tensor");
}

TEST_CASE("physics_a100_memory_bound_gemm_bound_by_dram_bandwidth", "[physics]") {
  const auto j = run_stats("--arch a100 --gemm 8192x8x8192 --dtype fp16");
  const auto& op = j["ops"][0];
  const double bytes = 2.0 * (8192.0 * 8192 + 8.0 * 8192) + 2.0 * 8192 * 8;
  const double ideal = bytes / 1555e9;
  const double ratio = op["seconds"].get<double>() / ideal;
  INFO("time / (bytes / bandwidth) = " << ratio);
  CHECK(ratio >= 1.0);
  CHECK(ratio <= 1.3);
  CHECK(op["limiter"] == "dram");
}

TEST_CASE("physics_a100_time_never_decreases_as_m_n_k_grow", "[physics]") {
  check_time_monotone_in_mnk("a100", {128, 256, 512, 768, 1024, 1536, 2048, 3072});
}

TEST_CASE("physics_a100_two_runs_identical_stats", "[physics]") {
  auto a = run_stats("--arch a100 --gemm 2048x1536x1024 --gemm 512x512x4096");
  auto b = run_stats("--arch a100 --gemm 2048x1536x1024 --gemm 512x512x4096");
  a["total"].erase("wall_seconds");
  b["total"].erase("wall_seconds");
  CHECK(a.dump() == b.dump());
}
