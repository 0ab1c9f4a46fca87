// The sparse (mma.sp) pipeline: the interval of an N:M instruction is the dense one
// unless the B-selection or metadata path is too narrow for it.
#include <catch2/catch.hpp>

#include "models/tensor_core/mma_pipeline.h"
#include "sim/core/input_error.h"

using namespace stcsim;

namespace {
// A100-like: dense ii 8, B path 64 B/cycle, metadata 128 bits/cycle.
MmaPipelineSpec a100_like(double b_path = 64, double meta_path = 128) {
  MmaPipelineSpec s;
  for (Dtype d : kAllDtypes) s.per_dtype[int(d)] = {8, 24};
  s.sparse_patterns = {{2, 4}, {1, 2}, {1, 4}, {2, 8}};
  s.b_bytes_per_cycle = b_path;
  s.metadata_bits_per_cycle = meta_path;
  s.sparse_extra_latency = 2;
  return s;
}
}  // namespace

TEST_CASE("sparse_mma_kind_shapes_bytes_and_metadata", "[sparse_tc]") {
  const MmaKind f16_24{Dtype::FP16, {2, 4}};
  CHECK(f16_24.shape().k == 32);
  CHECK(f16_24.products() == 16 * 8 * 16);
  CHECK(f16_24.metadata_bits() == 16 * 16 * 2);  // 16 rows x 16 kept x 2-bit index
  CHECK(f16_24.b_bytes() == 8 * 32 * 2);
  // fp16 2:4 stores 9/16 of the dense bytes: half the values plus 2 bits per kept value.
  CHECK((f16_24.a_bytes_per_k() + f16_24.meta_bytes_per_k()) / 2.0 == Approx(9.0 / 16));
  const MmaKind tf32_12{Dtype::TF32, {1, 2}};
  CHECK(tf32_12.shape().k == 16);
  CHECK(tf32_12.index_bits() == 4);
  const MmaKind s8_24{Dtype::INT8, {2, 4}};
  CHECK(s8_24.shape().k == 64);
  CHECK(s8_24.metadata_bits() == 1024);
  const MmaKind f16_14{Dtype::FP16, {1, 4}};
  CHECK(f16_14.shape().k == 64);
  CHECK(f16_14.b_bytes() == 1024);
  CHECK(MmaKind{Dtype::FP16, {2, 8}}.index_bits() == 3);
}

TEST_CASE("sparse_pipe_interval_per_path", "[sparse_tc]") {
  MmaPipeline pipe(a100_like());
  CHECK(pipe.initiation_interval({Dtype::FP16, {}}) == 8);
  CHECK(pipe.initiation_interval({Dtype::FP16, {2, 4}}) == 8);  // 512 B of B, 512 bits of metadata
  CHECK(pipe.initiation_interval({Dtype::INT8, {2, 4}}) == 8);  // 1024 bits at 128/cycle
  CHECK(pipe.initiation_interval({Dtype::TF32, {1, 2}}) == 8);
  CHECK(pipe.initiation_interval({Dtype::FP16, {1, 4}}) == 16);  // 1024 B of B at 64 B/cycle
  CHECK(pipe.latency({Dtype::FP16, {2, 4}}) == 26);
  MmaPipeline narrow(a100_like(64, 32));  // a 32-bit metadata path
  CHECK(narrow.initiation_interval({Dtype::FP16, {2, 4}}) == 16);
  MmaPipeline wide(a100_like(0, 0));  // unlimited paths
  CHECK(wide.initiation_interval({Dtype::FP16, {1, 4}}) == 8);
}

TEST_CASE("sparse_pipe_exact_cycles_back_to_back", "[sparse_tc]") {
  MmaPipeline pipe(a100_like(64, 32));  // ii 16 for fp16 2:4
  const MmaKind k{Dtype::FP16, {2, 4}};
  Cycle last = 0;
  for (int i = 0; i < 10; ++i) last = pipe.issue(0, k);
  CHECK(last + pipe.latency(k) == 9 * 16 + 26);
}

TEST_CASE("sparse_unsupported_patterns_are_named", "[sparse_tc]") {
  MmaPipelineSpec s = a100_like();
  s.sparse_patterns = {{2, 4}};
  MmaPipeline pipe(s);
  CHECK_FALSE(pipe.supports({Dtype::FP16, {1, 4}}));
  CHECK_THAT(pipe.unsupported_reason({Dtype::FP16, {1, 4}}), Catch::Contains("1:4"));
  for (const char* bad : {"2:3", "0:4", "4:4", "2:16", "x", "2:4:8"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_sparsity(bad), InputError);
  }
  CHECK(parse_sparsity("2:8") == NmSparsity{2, 8});
  CHECK(parse_sparsity("dense").dense());
}
