// `stcsim run --mode analytic`: every kernel's closed-form estimate in place of a
// simulation, flagged in the stats, within a factor of the cycle mode (the per-GEMM error
// on a standard set is bench/analytic_error.sh's), and its bad uses refused.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("analytic_mode_estimates_every_kernel_and_says_so", "[cli][analytic]") {
  // Tensor-core GEMMs dense and 2:4 (and the 2:4 ops' dense twins), on the Ampere and
  // the Hopper kernels.
  for (const char* arch : {"a100", "h100"}) {
    const std::string args =
        std::string("--arch ") + arch + " --sparsity 2:4 --gemm 2048x2048x2048 --gemm 512x3072x768";
    const auto cyc = run_stats(args);
    const auto ana = run_stats(args + " --mode analytic");
    CHECK(ana["run"]["mode"] == "analytic");
    CHECK(cyc["run"]["mode"] == "cycle");
    REQUIRE(ana["ops"].size() == cyc["ops"].size());
    for (std::size_t i = 0; i < ana["ops"].size(); ++i) {
      const auto &a = ana["ops"][i], &c = cyc["ops"][i];
      INFO(arch << " " << c["name"] << ": cycle " << c["cycles"] << ", analytic " << a["cycles"]);
      CHECK(a["analytic"] == 1);
      CHECK(!c.contains("analytic"));
      CHECK(a["mapping"] == c["mapping"]);  // the same plan, only not simulated
      for (const char* key : {"cycles", "dense_cycles"}) {
        const double r = a[key].get<double>() / c[key].get<double>();
        CHECK(r > 0.5);
        CHECK(r < 2.0);
      }
      CHECK(a["tflops"].get<double>() <= a["peak_tflops"].get<double>());
      CHECK(a["energy"]["joules"].get<double>() > 0);
    }
  }
}

TEST_CASE("analytic_mode_runs_the_cuda_core_and_block_kernels", "[cli][analytic]") {
  const auto block =
      run_stats("--arch a100 --mode analytic --block 32x32@0.75 --gemm 1024x2048x2048");
  CHECK(block["ops"][0]["analytic"] == 1);
  CHECK(block["ops"][0]["cycles"].get<double>() > 0);
  const auto csr = run_stats("--arch a100 --mode analytic --unstructured 0.9 --gemm 256x1024x1024");
  CHECK(csr["ops"][0]["cycles"].get<double>() > 0);
  CHECK(csr["ops"][0]["peak_tflops"].get<double>() < 30);  // the CUDA cores' peak
  // A transformer with attention and row ops: every op estimated.
  const auto gpt = run_stats("--arch h100 --mode analytic --model gpt2 --tokens 128");
  int row_ops = 0;
  for (const auto& op : gpt["ops"]) {
    CHECK(op["analytic"] == 1);
    CHECK(op["cycles"].get<double>() > 0);
    row_ops += op.contains("row_op");
  }
  CHECK(row_ops == 74);
}

TEST_CASE("analytic_mode_bad_uses_are_input_errors", "[cli][analytic]") {
  const auto bad = run_stcsim("run --arch a100 -q --mode fast --gemm 64x64x64");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("--mode: expected cycle, steady or analytic, got 'fast'"));
  const auto fn =
      run_stcsim("run --arch a100 -q --mode analytic --functional --gemm 64x64x64 --out " +
                 temp_dir("analytic_fn"));
  CHECK(fn.status == 2);
  CHECK_THAT(fn.err, Catch::Contains("--functional needs --mode cycle"));
}
