// mapping.b_fragment_buffers (models/kernels/tensor_core_ktile.cpp): with one B buffer a
// warp loads its next B fragments only after its last mma of the k-sub, which costs time
// where the shared-memory port has slack and nothing where the port is saturated
// (docs/notes.md, "CUTLASS's single B-fragment buffer").
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
double cycles(const std::string& args, int buffers) {
  const auto s = run_stats(
      args + " --no-dense-baseline -p mapping.b_fragment_buffers=" + std::to_string(buffers));
  CHECK(s["ops"][0]["mapping"]["b_fragment_buffers"] == buffers);
  return s["ops"][0]["cycles"].get<double>();
}
}  // namespace

TEST_CASE("b_fragment_buffers_default_follows_cutlass", "[cli][mapping]") {
  // 2:4 on the default 64x64 warp tile: one buffer; dense: always two.
  const auto sp = run_stats("--arch a100 --gemm 2048x768x3072 --sparsity 2:4");
  CHECK(sp["ops"][0]["mapping"]["warp_m"] == 64);
  CHECK(sp["ops"][0]["mapping"]["warp_n"] == 64);
  CHECK(sp["ops"][0]["mapping"]["b_fragment_buffers"] == 1);
  CHECK(run_stats("--arch a100 --gemm 2048x768x3072")["ops"][0]["mapping"]["b_fragment_buffers"] ==
        2);
}

TEST_CASE("b_fragment_buffers_single_buffer_costs_where_the_port_has_slack", "[cli][mapping]") {
  // Fills at the port's full width leave the port slack on this 2:4 GEMM: the late B
  // loads show (measured 33,389 against 32,344 cycles).
  const std::string slack =
      "--arch a100 --gemm 2048x768x3072 --sparsity 2:4 -p smem.fill_write_bytes_per_cycle=128";
  CHECK(cycles(slack, 1) > 1.01 * cycles(slack, 2));
  // The a100 preset's 64-byte fills saturate the port: the same GEMM takes the same time.
  const std::string saturated = "--arch a100 --gemm 2048x768x3072 --sparsity 2:4";
  CHECK(cycles(saturated, 1) == cycles(saturated, 2));
}
