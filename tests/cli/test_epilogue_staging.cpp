// mapping.epilogue_staging (models/mapping/kernel_mapping.h): CUTLASS's sm80 epilogues put
// the fp32 accumulators through shared memory and convert them after reading them back;
// the validation harness's kernels convert to f16 first. One CTA's tile, its cycles worked
// out by hand at the port's 32 banks x 4 B = 128 B/clk. Staged as fp32 (CUTLASS: each
// thread stores two adjacent accumulators, 8 B; a warp's 256 B in two port cycles), a
// 128x128 tile is 64 KiB written in 512 cycles and read back in 512. Staged as f16 by the
// harness's one 2-byte store a thread (64 B a warp's store, still one port cycle), it is
// 32 KiB written in 512 cycles and read back (16 B a thread) in 256. So 256 cycles more
// under accumulator; its store over the link (the f16 output) is the same. An int8 GEMM's
// output is int32 already and a split-K slice's partials are fp32 under either value:
// stored 8 B a thread under accumulator, 4 B under output, both at the port's full width,
// so nothing changes. The block-skipping kernel stages its tile the same way.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
const std::string kTile =
    " -p mapping.cta_m=128 -p mapping.cta_n=128 -p mapping.cta_k=32 -p mapping.warp_m=64 "
    "-p mapping.warp_n=64 -p mapping.stages=3";

double cycles(const std::string& dtype, const std::string& staging, int split_k = 1) {
  const auto s = run_stats("--arch a100 --dtype " + dtype +
                           " --gemm 128x128x256 -p mapping.kernel=multistage_gemm" + kTile +
                           " -p mapping.split_k=" + std::to_string(split_k) +
                           " -p mapping.epilogue_staging=" + staging);
  CHECK(s["ops"][0]["mapping"]["epilogue_staging"] == staging);
  return s["ops"][0]["cycles"].get<double>();
}
}  // namespace

TEST_CASE("epilogue_staging_accumulator_stages_fp32_through_shared_memory", "[cli][mapping]") {
  CHECK(cycles("fp16", "accumulator") - cycles("fp16", "output") == 256);
  CHECK(cycles("bf16", "accumulator") - cycles("bf16", "output") == 256);
  CHECK(cycles("int8", "accumulator") == cycles("int8", "output"));
  // A split-K slice stages its fp32 partials whatever the key says.
  CHECK(cycles("fp16", "accumulator", 2) == cycles("fp16", "output", 2));
  // One CTA of the block-skipping kernel (half its 32x32 blocks kept): the same 256.
  auto block = [](const std::string& staging) {
    const auto s = run_stats(
        "--arch a100 --dtype fp16 --gemm 128x128x256 --block 32x32@0.5 "
        "--no-dense-baseline" +
        kTile + " -p mapping.epilogue_staging=" + staging);
    CHECK(s["ops"][0]["ctas"] == 1);
    return s["ops"][0]["cycles"].get<double>();
  };
  CHECK(block("accumulator") - block("output") == 256);
}

TEST_CASE("epilogue_staging_defaults_to_cutlass_and_rejects_other_values", "[cli][mapping]") {
  const auto s = run_stats("--arch a100 --gemm 1024x1024x1024");
  CHECK(s["ops"][0]["mapping"]["epilogue_staging"] == "accumulator");
  const auto bad =
      run_stcsim("run -q --arch a100 --gemm 1024x1024x1024 -p mapping.epilogue_staging=f32");
  CHECK(bad.status != 0);
  CHECK(bad.err.find("epilogue_staging") != std::string::npos);
  CHECK(bad.err.find("accumulator") != std::string::npos);
}
