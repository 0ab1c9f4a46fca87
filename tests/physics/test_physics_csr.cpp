// Timing physics of the unstructured-sparsity baselines (docs/block_sparse.md): the
// row-split CSR SpMM kernel on CUDA cores and the tensor-core kernel over Vx1 column
// vectors covering an unstructured mask, on the A100 preset.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
nlohmann::json csr_op(const std::string& gemm, const std::string& s,
                      const std::string& extra = "") {
  return run_stats("--arch a100 --gemm " + gemm + " --unstructured " + s + " --no-dense-baseline" +
                   extra)["ops"][0];
}
}  // namespace

TEST_CASE("physics_csr_f16_1024_never_exceeds_cuda_core_peak", "[physics][csr]") {
  for (const char* s : {"0", "0.5", "0.9"}) {
    const auto op = csr_op("1024x1024x1024", s);
    INFO("sparsity " << s << " cycles " << op["cycles"] << " tflops " << op["tflops"]);
    // Real multiply-adds over the CUDA cores' FP32 FMA rate (108 SMs x 64 lanes x 1.41 GHz).
    const double fma = op["products"].get<double>();
    const double floor_cycles = fma / (108.0 * 64.0);
    CHECK(op["cycles"].get<double>() >= floor_cycles);
    CHECK(op["utilization"]["cuda_cores"].get<double>() <= 1.0);
    CHECK(op["utilization"]["tensor"].get<double>() == 0.0);
    CHECK(op["peak_tflops"].get<double>() == Approx(2 * 108 * 64 * 1.41e9 / 1e12));
  }
  // Dense CSR (every weight kept) is bound by the FP32 pipes: at least 80% busy.
  CHECK(csr_op("1024x1024x1024", "0")["utilization"]["cuda_cores"].get<double>() > 0.8);
}

TEST_CASE("physics_csr_f16_1024_time_never_grows_with_sparsity", "[physics][csr]") {
  double prev = 1e300;
  for (const char* s : {"0", "0.3", "0.6", "0.8", "0.9", "0.95", "0.98", "0.99", "1"}) {
    const double c = csr_op("1024x1024x1024", s)["cycles"];
    INFO("sparsity " << s << " cycles " << c << " previous " << prev);
    CHECK(c <= prev);
    prev = c;
  }
}

TEST_CASE("physics_csr_f16_1024_beats_dense_only_when_very_sparse", "[physics][csr]") {
  // The tensor cores have 16x the CUDA cores' FMA rate: CSR loses at moderate sparsity
  // and wins once almost every weight is gone.
  const auto half = run_stats("--arch a100 --gemm 1024x1024x1024 --unstructured 0.5")["ops"][0];
  const auto sparse = run_stats("--arch a100 --gemm 1024x1024x1024 --unstructured 0.99")["ops"][0];
  INFO("speedup at 50% " << half["speedup_vs_dense"] << ", at 99% " << sparse["speedup_vs_dense"]);
  CHECK(half["speedup_vs_dense"].get<double>() < 0.5);
  CHECK(sparse["speedup_vs_dense"].get<double>() > 1.5);
  CHECK(half["reduction_factors"]["capability_ratio"].get<double>() == Approx(64.0 / 1024.0));
}

TEST_CASE("physics_csr_f16_2048_skewed_rows_slower_than_uniform", "[physics][csr]") {
  const auto u = csr_op("512x2048x2048", "0.9");
  const auto s = csr_op("512x2048x2048", "0.9", " --block-dist skewed");
  INFO("uniform " << u["cycles"] << " skewed " << s["cycles"]);
  CHECK(u["csr"]["nonzeros"].get<double>() ==
        Approx(s["csr"]["nonzeros"].get<double>()).epsilon(0.01));
  CHECK(s["csr"]["imbalance"].get<double>() > 2.0 * u["csr"]["imbalance"].get<double>());
  CHECK(s["cycles"].get<double>() > u["cycles"].get<double>());
}

TEST_CASE("physics_tc_vectors_16x1_f16_1024_dense_mask_costs_about_dense", "[physics][csr]") {
  // Every weight kept: every 16x1 vector is present, so the tensor-core vector kernel
  // runs the dense GEMM plus its index fetch.
  const auto op = run_stats(
      "--arch a100 --gemm 1024x1024x1024 --unstructured 0 --unstructured-kernel tc:16")["ops"][0];
  INFO("speedup " << op["speedup_vs_dense"]);
  CHECK(op["block_sparse"]["density"].get<double>() == Approx(1.0));
  CHECK(op["speedup_vs_dense"].get<double>() > 0.85);
  CHECK(op["speedup_vs_dense"].get<double>() <= 1.01);
}

TEST_CASE("physics_csr_conv3x3_f16_reads_the_input_once_not_its_windows", "[physics][csr]") {
  // A 3x3 convolution (one SCALE-Sim row: 58x58 padded input, 128 -> 128 channels) pruned
  // to 90% unstructured on the CSR kernel: its gathers read the input's channel planes,
  // so DRAM sees the input about once, not the 9x of an unrolled (im2col) operand.
  const std::string csv = temp_dir("csr_conv") + "/c.csv";
  std::ofstream(csv) << "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, "
                        "Channels, Num Filter, Strides,\nc3, 58, 58, 3, 3, 128, 128, 1,\n";
  const auto j = run_stats("--arch a100 --model " + csv +
                           " --batch 4 --prune block:1x1@0.9 --unstructured-kernel csr");
  const auto& op = j["ops"][0];
  REQUIRE(op.contains("csr"));
  const double input = 4.0 * 58 * 58 * 128 * 2, unrolled = 4.0 * 56 * 56 * 1152 * 2;
  const double weights = 128.0 * 1152 * 0.1 * (2 + 4);  // kept values and their indices
  const double reads = op["dram_read_bytes"];
  INFO("DRAM reads " << reads << ", input " << input << ", unrolled " << unrolled);
  CHECK(reads >= input);
  CHECK(reads <= 1.25 * (input + weights));
  CHECK(reads < 0.2 * unrolled);
}

TEST_CASE("physics_unstructured_bad_kernel_is_an_input_error", "[physics][csr]") {
  const auto r =
      run_stcsim("run --arch a100 --gemm 64x64x64 --unstructured 0.5 --unstructured-kernel tc:0");
  CHECK(r.status == 2);
  CHECK(r.err.find("--unstructured-kernel") != std::string::npos);
  const auto r2 = run_stcsim("run --arch a100 --gemm 64x64x64 --unstructured 0.5 --sparsity 2:4");
  CHECK(r2.status == 2);
  CHECK(r2.err.find("--unstructured") != std::string::npos);
}

TEST_CASE("physics_csr_real_pruned_ppocrv4_trace_end_to_end", "[physics][csr]") {
  if (skip_without_real_model("ppocrv4_rec")) return;
  // Real weights pruned unstructured (block:1x1) to 90%, run on the CSR kernel.
  const std::string d = temp_dir("csr_trace");
  const auto w = run_stcsim("trace --model ppocrv4_rec --prune block:1x1@0.9 --out " + d + "/t");
  INFO(w.err);
  REQUIRE(w.status == 0);
  const auto j = run_stats("--arch a100 --trace " + d + "/t --unstructured-kernel csr");
  int on_csr = 0;
  for (const auto& op : j["ops"]) {
    if (!op.contains("csr")) continue;
    ++on_csr;
    INFO(op["name"]);
    CHECK(op["csr"]["density"].get<double>() < 0.5);
    CHECK(op["utilization"]["cuda_cores"].get<double>() <= 1.0);
    CHECK(op["speedup_vs_dense"].get<double>() > 0);
  }
  CHECK(on_csr == 47);
}

TEST_CASE("functional_csr_f16_values_are_an_fp32_fma_chain_on_pruned_weights",
          "[physics][csr][functional]") {
  // The CSR kernel accumulates in fp32 FMAs on the CUDA cores, not with the tensor
  // core's fused blocks; its weights are the mask's (90% zeros).
  const auto op =
      run_stats("--arch a100 --gemm 64x96x256 --unstructured 0.9 --functional")["ops"][0];
  CHECK(op["functional"]["numerics"] == "ieee_sequential");
  // An fp32 chain is within a few ulps of sum |x w| of the exact result.
  CHECK(op["functional"]["max_error_in_ulps_of_abs_sum"].get<double>() < 16);
  const auto blk =
      run_stats("--arch a100 --gemm 64x96x256 --block 16x16@0.5 --functional")["ops"][0];
  CHECK(blk["functional"]["numerics"] == "a100");
}

TEST_CASE("physics_csr_dependent_gathers_wait_a_round_trip_a_nonzero", "[physics][csr]") {
  // One 128-column tile over 768 rows of W (192 CTAs on 108 SMs, 2 at most an SM): each
  // warp has one gather in flight, so each nonzero costs a round trip and the loop's
  // dependent chain around it (a conversion, two shared-memory loads, the nonzero's
  // instructions and three address operations: 4 + 30 + 30 + 8 + 3 x 4 = 84 cycles on
  // A100): at least that and an L2 hit (203), at most that, the far partition's extra and
  // DRAM's latency (277 + 227). The time per row nonzero across sparsities lies between.
  // Never faster than the staged loop, and still never slower at higher sparsity.
  const std::string dep = " -p mapping.csr_gather_loop=dependent";
  double prev = 1e300;
  std::vector<std::pair<double, double>> points;  // (nonzeros a row, cycles)
  for (const char* s : {"0.9", "0.95", "0.98"}) {
    const auto d = csr_op("128x768x3072", s, dep);
    const auto st = csr_op("128x768x3072", s);
    const double c = d["cycles"].get<double>();
    INFO("sparsity " << s << " dependent " << c << " staged " << st["cycles"]);
    CHECK(c >= st["cycles"].get<double>());
    CHECK(c <= prev);
    prev = c;
    points.emplace_back(d["csr"]["nonzeros"].get<double>() / 768, c);
  }
  const double slope = (points[0].second - points[2].second) / (points[0].first - points[2].first);
  INFO("cycles per row nonzero " << slope);
  CHECK(slope >= 84 + 203);
  CHECK(slope <= 84 + 203 + 277 + 227);
}
