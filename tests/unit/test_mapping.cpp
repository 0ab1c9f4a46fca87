#include <catch2/catch.hpp>

#include "models/mapping/cutlass_sm80_tiles.h"
#include "models/mapping/kernel_mapping.h"
#include "sim/core/input_error.h"

using namespace stcsim;

namespace {
ChooserHardware a100_like() {
  ChooserHardware hw;
  hw.num_sms = 108;
  hw.sm.smem_bytes = hw.sm.max_smem_per_cta_bytes = 164 * 1024;
  hw.mma_fma_per_cycle_per_sm = 1024;
  hw.l2_bytes_per_cycle = 3840;
  hw.dram_bytes_per_cycle = 1014;
  hw.dram_latency_cycles = 400;
  return hw;
}

// A GEMM named "g" (members set one by one: a partial aggregate warns under -Wextra).
GemmOp gemm(std::int64_t m, std::int64_t n, std::int64_t k, Dtype dtype = Dtype::FP16) {
  GemmOp op;
  op.name = "g";
  op.m = m;
  op.n = n;
  op.k = k;
  op.dtype = dtype;
  return op;
}
}  // namespace

TEST_CASE("mapping_chooser_returns_valid_mappings", "[mapping]") {
  const auto hw = a100_like();
  for (Dtype d : kAllDtypes)
    for (auto [m, n, k] : {std::tuple{8192, 8192, 8192},
                           {8192, 8, 8192},
                           {128, 128, 65536},
                           {1, 1, 1},
                           {4096, 768, 3072}}) {
      INFO(to_string(d) << " " << m << "x" << n << "x" << k);
      const KernelMapping map = choose_mapping(gemm(m, n, k, d), hw, MappingRequest{});
      CHECK_NOTHROW(validate_mapping(map, hw.sm, MmaKind{d, {}}));
      CHECK(occupancy(map, hw.sm, MmaKind{d, {}}).ctas_per_sm >= 1);
      CHECK_THAT(map.chosen_by, Catch::Contains("heuristic"));
    }
}

TEST_CASE("mapping_chooser_skinny_gemm_estimate_near_dram_bound", "[mapping]") {
  const GemmOp op = gemm(8192, 8, 8192);
  const auto map = choose_mapping(op, a100_like(), MappingRequest{});
  const double dram_bound = op.min_bytes() / a100_like().dram_bytes_per_cycle;
  CHECK(estimate_cycles(op, a100_like(), map) <= 1.3 * dram_bound);
  const auto big = choose_mapping(gemm(8192, 8192, 8192), a100_like(), MappingRequest{});
  CHECK(big.cta_m * big.cta_n >= 128 * 128);
}

TEST_CASE("mapping_user_mapping_is_validated", "[mapping]") {
  MappingRequest r;
  r.cta_m = 128;
  r.cta_n = 128;
  r.cta_k = 32;
  r.warp_m = 64;
  r.warp_n = 64;
  r.stages = 4;
  const auto m = choose_mapping(gemm(1024, 1024, 1024), a100_like(), r);
  CHECK(m.chosen_by == "config");
  CHECK(m.stages == 4);
  r.warp_m = 40;
  CHECK_THROWS_WITH(choose_mapping(gemm(1024, 1024, 1024), a100_like(), r),
                    Catch::Contains("mapping.warp_m"));
  r.warp_m = 64;
  r.stages = 16;
  CHECK_THROWS_WITH(choose_mapping(gemm(1024, 1024, 1024), a100_like(), r),
                    Catch::Contains("mapping.stages"));
  MappingRequest partial;
  partial.cta_m = 128;
  CHECK_THROWS_WITH(choose_mapping(gemm(64, 64, 64), a100_like(), partial),
                    Catch::Contains("all of"));
}

TEST_CASE("mapping_occupancy_limits", "[mapping]") {
  SmSpec sm;
  sm.smem_bytes = sm.max_smem_per_cta_bytes = 164 * 1024;
  KernelMapping m;
  m.cta_m = 128;
  m.cta_n = 256;
  m.cta_k = 64;
  m.warp_m = 64;
  m.warp_n = 64;
  m.stages = 3;
  // 3 x (128+256) x 128 B = 147456 B of smem: one CTA fits in 164 KiB.
  CHECK(m.smem_bytes(MmaKind{Dtype::FP16, {}}) == 147456);
  auto o = occupancy(m, sm, MmaKind{Dtype::FP16, {}});
  CHECK(o.ctas_per_sm == 1);
  m.cta_n = 64;
  m.warp_n = 32;
  m.stages = 2;
  o = occupancy(m, sm, MmaKind{Dtype::FP16, {}});
  CHECK(o.ctas_per_sm >= 2);
}

TEST_CASE("mapping_policy_cutlass_sm80_picks_a_shipped_tile", "[mapping]") {
  MappingRequest r;
  r.policy = "cutlass_sm80";
  for (const MmaKind kind : {MmaKind{Dtype::FP16, {}}, MmaKind{Dtype::FP16, NmSparsity{2, 4}},
                             MmaKind{Dtype::INT8, {}}}) {
    INFO(kind.str());
    GemmOp op = gemm(4096, 4096, 4096, kind.dtype);
    op.sparsity = kind.sparsity;
    const auto map = choose_mapping(op, a100_like(), r);
    bool shipped = false;
    for (const auto& c : cutlass_sm80_candidates(kind))
      shipped |= c.cta_m == map.cta_m && c.cta_n == map.cta_n && c.cta_k == map.cta_k &&
                 c.warp_m == map.warp_m && c.warp_n == map.warp_n;
    CHECK(shipped);
  }
  // The generator's list sizes (f16/bf16): 22 dense, 13 sparse.
  CHECK(cutlass_sm80_candidates(MmaKind{Dtype::FP16, NmSparsity{2, 4}}).size() == 13);
  CHECK(cutlass_sm80_candidates(MmaKind{Dtype::FP16, {}}).size() == 22);
  GemmOp tf32 = gemm(1024, 1024, 1024, Dtype::TF32);
  CHECK_THROWS_WITH(choose_mapping(tf32, a100_like(), r), Catch::Contains("mapping.policy"));
}
