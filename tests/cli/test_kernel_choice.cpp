// The mapping names the kernel (mapping.kernel): auto's choice, an explicit name, and
// the errors for a kernel that cannot run an op or does not exist.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("kernel_every_registered_kernel_is_listed", "[cli][kernel]") {
  const auto r = run_stcsim("components --kind kernel");
  REQUIRE(r.status == 0);
  for (const char* k :
       {"multistage_gemm", "block_sparse_gemm", "csr_spmm", "split_k_reduce", "depthwise_conv"})
    CHECK(r.out.find(std::string("kernel / ") + k) != std::string::npos);
}

TEST_CASE("kernel_named_explicitly_equals_autos_choice", "[cli][kernel]") {
  const auto a = run_stats("--arch a100 --gemm 512x512x512");
  const auto b = run_stats("--arch a100 --gemm 512x512x512 -p mapping.kernel=multistage_gemm");
  CHECK(a["ops"][0]["cycles"] == b["ops"][0]["cycles"]);
  const auto c = run_stats("--arch a100 --gemm 256x512x512 --unstructured 0.9 --no-dense-baseline");
  const auto d = run_stats(
      "--arch a100 --gemm 256x512x512 --unstructured 0.9 --no-dense-baseline "
      "-p mapping.kernel=csr_spmm");
  CHECK(c["ops"][0]["cycles"] == d["ops"][0]["cycles"]);
  CHECK(c["ops"][0].contains("csr"));
  // The same mask on the tensor-core block kernel is another run.
  const auto e = run_stats(
      "--arch a100 --gemm 256x512x512 --unstructured 0.9 --no-dense-baseline "
      "-p mapping.kernel=block_sparse_gemm");
  CHECK(e["ops"][0].contains("block_sparse"));
  CHECK(e["ops"][0]["cycles"] != c["ops"][0]["cycles"]);
}

TEST_CASE("kernel_that_cannot_run_the_op_is_an_input_error", "[cli][kernel]") {
  const auto r = run_stcsim("run --arch a100 --gemm 512x512x512 -p mapping.kernel=csr_spmm -q");
  CHECK(r.status != 0);
  CHECK(r.err.find("needs an unstructured (1x1) weight mask") != std::string::npos);
  const auto u = run_stcsim("run --arch a100 --gemm 512x512x512 -p mapping.kernel=multistage -q");
  CHECK(u.status != 0);
  CHECK(u.err.find("unknown kernel 'multistage'") != std::string::npos);
  CHECK(u.err.find("multistage_gemm") != std::string::npos);
}
