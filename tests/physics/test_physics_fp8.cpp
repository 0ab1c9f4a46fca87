// Physics of fp8 (e4m3, e5m2) on the Hopper presets: never above the fp8 peak (twice
// fp16's), 2:4 never above 2x dense, time monotone in size, e5m2 at e4m3's speed, and the
// Ampere-style kernel on its emulated mma.sync rate (half the wgmma peak).
#include <catch2/catch.hpp>

#include "tests/physics/monotone_in_size.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
bool wgmma(const nlohmann::json& op) {
  return op["instruction"].get<std::string>().find("wgmma") != std::string::npos;
}
}  // namespace

TEST_CASE("physics_h100_fp8_8192_cubed_within_the_fp8_peak", "[physics][hopper][fp8]") {
  const auto op = run_stats("--arch h100 --gemm 8192x8192x8192 --dtype fp8_e4m3")["ops"][0];
  CHECK(wgmma(op));
  const double peak = op["peak_tflops"];
  CHECK(peak == Approx(132 * 4096 * 2 * 1.755e9 / 1e12).epsilon(1e-6));  // 1979 at 1.83 GHz
  const double t = op["tflops"];
  INFO("achieved " << t << " of " << peak << " TFLOP/s");
  CHECK(t <= peak);
  // The 700 W limit may settle the clock below the preset's 1755 MHz (models/power), as
  // on the GPU: NVML read 1,590 MHz on the H200's 8192^3 over 2 s (docs/power.md).
  CHECK(t >= 0.70 * peak);
  for (const char* r : {"tensor", "smem", "l2", "dram", "l2_link"})
    CHECK(op["utilization"][r].get<double>() <= 1.0 + 1e-9);
}

TEST_CASE("physics_h100_fp8_sparse_24_never_above_2x_dense", "[physics][hopper][fp8]") {
  for (const char* g : {"4096x4096x4096", "2048x3072x768", "512x768x3072"}) {
    const std::string base = std::string("--arch h100 --gemm ") + g + " --dtype fp8_e4m3";
    const double dense = run_stats(base)["ops"][0]["cycles"];
    const auto sp = run_stats(base + " --sparsity 2:4")["ops"][0];
    CHECK(wgmma(sp));
    const double speedup = dense / sp["cycles"].get<double>();
    INFO(g << ": fp8 2:4 speedup " << speedup);
    CHECK(speedup <= 2.0);
    CHECK(speedup > 0.5);
    CHECK(sp["tflops"].get<double>() <= 2.0 * sp["peak_tflops"].get<double>());
  }
}

TEST_CASE("physics_h200_fp8_time_never_decreases_as_m_n_k_grow", "[physics][hopper][fp8]") {
  check_time_monotone_in_mnk("h200", {128, 512, 1024, 2048, 3072}, " --dtype fp8_e4m3");
}

TEST_CASE("physics_h200_fp8_e5m2_runs_at_e4m3_speed", "[physics][hopper][fp8]") {
  // Same rate, same bytes: identical cycles, dense and 2:4.
  for (const char* sp : {"", " --sparsity 2:4"}) {
    const double e4 = run_stats(std::string("--arch h200 --gemm 2048x2048x2048 --dtype fp8_e4m3") +
                                sp)["ops"][0]["cycles"];
    const double e5 = run_stats(std::string("--arch h200 --gemm 2048x2048x2048 --dtype fp8_e5m2") +
                                sp)["ops"][0]["cycles"];
    CHECK(e4 == e5);
  }
}

TEST_CASE("physics_h100_fp8_on_the_ampere_kernel_at_the_emulated_rate", "[physics][hopper][fp8]") {
  const auto op = run_stats(
      "--arch h100 --gemm 2048x2048x2048 --dtype fp8_e4m3 -p mapping.kernel=multistage_gemm")["ops"]
                                                                                             [0];
  CHECK(op["instruction"] == "fp8_e4m3 m16n8k32");
  // Two fp16 m16n8k16 steps per m16n8k32 at mma.sync's measured 6 cycles each (h100.yaml
  // [10]): 4/6 of the wgmma fp16 rate, a third of the wgmma fp8 peak (at the preset clock).
  CHECK(op["peak_tflops"].get<double>() ==
        Approx(132 * 2048 * 2 * 1.755e9 * 4 / 6 / 1e12).epsilon(1e-6));
  CHECK(op["tflops"].get<double>() <= op["peak_tflops"].get<double>());
  const auto wg = run_stats("--arch h100 --gemm 2048x2048x2048 --dtype fp8_e4m3")["ops"][0];
  CHECK(wg["cycles"].get<double>() < op["cycles"].get<double>());
}
