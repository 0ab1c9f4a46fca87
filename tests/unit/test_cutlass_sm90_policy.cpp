// mapping.policy cutlass_sm90: the list of CUTLASS's sm90 GEMMs (spot entries read from
// NVIDIA/cutlass generator.py at 7107b05), the entry the warp-specialized kernel's
// estimate picks on the h200 preset, and the refusal on presets without wgmma and TMA.
#include <catch2/catch.hpp>
#include <memory>

#include "models/kernels/i_kernel.h"
#include "models/kernels/warp_specialized_mapping.h"
#include "models/mapping/cutlass_sm90_tiles.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"
#include "tests/support/preset_env.h"

using namespace stcsim;
using stcsim::test::PresetEnv;

namespace {

GemmOp gemm(std::int64_t m, std::int64_t n, std::int64_t k, Dtype dtype, NmSparsity sp = {}) {
  GemmOp op;
  op.name = "g";
  op.m = m;
  op.n = n;
  op.k = k;
  op.dtype = dtype;
  op.sparsity = sp;
  return op;
}

bool listed(const std::vector<CutlassSm90Entry>& list, int m, int n, int k, int cm, int cn,
            const std::string& schedule) {
  for (const auto& e : list)
    if (e.cta_m == m && e.cta_n == n && e.cta_k == k && e.cluster_m == cm && e.cluster_n == cn &&
        e.schedule == schedule)
      return true;
  return false;
}

}  // namespace

TEST_CASE("cutlass_sm90_list_matches_the_generator", "[mapping][sm90]") {
  const auto bf16 = cutlass_sm90_entries(MmaKind{Dtype::BF16, {}});
  // GenerateSM90_TensorOp_16b_WGMMA_gemm, level 131: 5 tiles x clusters (2,1,1), (1,2,1);
  // cooperative on the four with M % 128 == 0, ping-pong on all five.
  CHECK(bf16.size() == 2 * (4 + 5));
  CHECK(listed(bf16, 128, 256, 64, 2, 1, "cooperative"));
  CHECK(listed(bf16, 256, 128, 64, 1, 2, "pingpong"));
  CHECK(listed(bf16, 64, 256, 64, 2, 1, "pingpong"));
  CHECK_FALSE(listed(bf16, 64, 256, 64, 2, 1, "cooperative"));   // cooperative needs M >= 128
  CHECK_FALSE(listed(bf16, 64, 128, 64, 2, 1, "pingpong"));      // pruned: <= 64x128x64
  CHECK_FALSE(listed(bf16, 128, 128, 64, 1, 1, "cooperative"));  // 1x1x1 is cluster level 2
  // The 2:4 list (GenerateSM90_SparseTensorOp_16b_WGMMA_gemm): the same tiles, K 64 of
  // the dense problem.
  const auto sp = cutlass_sm90_entries(MmaKind{Dtype::FP16, NmSparsity{2, 4}});
  CHECK(sp.size() == bf16.size());
  CHECK(listed(sp, 128, 128, 64, 2, 1, "cooperative"));
  // tf32 (level 121) keeps 64x128; s8 (level 111) stops at M 128, K 128.
  const auto tf32 = cutlass_sm90_entries(MmaKind{Dtype::TF32, {}});
  CHECK(tf32.size() == 2 * (4 + 6));
  CHECK(listed(tf32, 64, 128, 32, 1, 2, "pingpong"));
  CHECK(listed(tf32, 256, 256, 32, 2, 1, "cooperative"));
  const auto s8 = cutlass_sm90_entries(MmaKind{Dtype::INT8, {}});
  CHECK(s8.size() == 2 * (2 + 4));
  CHECK(listed(s8, 128, 256, 128, 2, 1, "cooperative"));
  CHECK_FALSE(listed(s8, 256, 128, 128, 2, 1, "cooperative"));
  CHECK(cutlass_sm90_entries(MmaKind{Dtype::TF32, NmSparsity{1, 2}}).size() == tf32.size());
  CHECK(bf16.front().kernel_schedule() == "KernelTmaWarpSpecializedPingpong");
  CHECK(bf16.front().describe() == "64x256x64 cluster 2x1x1 KernelTmaWarpSpecializedPingpong");
  // fp8 (GenerateSM90_TensorOp_fp8_WGMMA_gemm, level 121): K 128; 256-row tiles
  // cooperative only; ping-pong only as its FP8FastAccum variant.
  const auto fp8 = cutlass_sm90_entries(MmaKind{Dtype::FP8_E4M3, {}});
  CHECK(fp8.size() == 2 * (4 + 4));
  CHECK(listed(fp8, 256, 256, 128, 1, 2, "cooperative"));
  CHECK_FALSE(listed(fp8, 256, 128, 128, 2, 1, "pingpong"));
  CHECK(listed(fp8, 64, 128, 128, 2, 1, "pingpong"));
  CHECK(fp8.front().kernel_schedule() == "KernelTmaWarpSpecializedPingpongFP8FastAccum");
  CHECK(cutlass_sm90_entries(MmaKind{Dtype::FP8_E5M2, NmSparsity{2, 4}}).size() == fp8.size());
  // No list for a pattern CUTLASS does not instantiate.
  CHECK_THROWS_WITH(cutlass_sm90_entries(MmaKind{Dtype::FP16, NmSparsity{1, 2}}),
                    Catch::Contains("mapping.policy cutlass_sm90") && Catch::Contains("1:2"));
  CHECK_THROWS_AS(cutlass_sm90_entries(MmaKind{Dtype::TF32, NmSparsity{2, 4}}), InputError);
}

TEST_CASE("cutlass_sm90_policy_picks_a_listed_entry_on_h200", "[mapping][sm90]") {
  const PresetEnv h200("h200", "cutlass_sm90");
  const KernelEnv env = h200.env();
  const IKernel& ws = KernelRegistry::get("warp_specialized_gemm");
  for (const Dtype dtype : {Dtype::BF16, Dtype::FP8_E4M3})
    for (const NmSparsity sparsity : {NmSparsity{}, NmSparsity{2, 4}})
      for (auto [m, n, k] :
           {std::tuple{8192, 8192, 8192}, {4096, 4096, 4096}, {512, 3072, 768}, {128, 768, 3072}}) {
        const GemmOp op = gemm(m, n, k, dtype, sparsity);
        INFO(op.kind().str() << " " << m << "x" << n << "x" << k);
        REQUIRE(ws.cannot_run(op, env).empty());
        const KernelMapping map = ws.mapping(op, env);
        INFO(map.describe() << " / " << map.chosen_by);
        // An entry of CUTLASS's list, as the kernel runs it: its cluster, stages that fit.
        CHECK(listed(cutlass_sm90_entries(op.kind()), map.cta_m, map.cta_n, map.cta_k,
                     map.cluster_m, map.cluster_n, map.schedule));
        CHECK(map.chosen_by.rfind("cutlass_sm90 " + std::to_string(map.cta_m) + "x", 0) == 0);
        CHECK(map.stages == ws_stages(map, op.kind(), env.sm));
        CHECK(ws_accumulator_regs(map) <= kWsConsumerRegs);
        CHECK(map.cluster_m * map.cluster_n == 2);  // the list's clusters: 2x1x1 and 1x2x1
      }
}

TEST_CASE("cutlass_sm90_policy_leaves_out_what_the_kernel_does_not_model", "[mapping][sm90]") {
  const PresetEnv h200("h200", "cutlass_sm90");
  const KernelEnv env = h200.env();
  const auto cands = ws_cutlass_sm90_candidates(gemm(8192, 8192, 8192, Dtype::BF16), env);
  // 18 entries, 9 of cluster 2x1x1 (B multicast) and 9 of 1x2x1 (A multicast); left out
  // of each, the ones whose accumulators exceed 232 registers per consumer thread:
  // 256x256 (both schedules), 128x256 and 256x128 ping-pong.
  CHECK(cands.size() == 2 * (9 - 4));
  int along_m = 0, along_n = 0;
  for (const auto& m : cands) {
    INFO(m.describe());
    CHECK(m.cluster_m * m.cluster_n == 2);
    along_m += m.cluster_m == 2;
    along_n += m.cluster_n == 2;
    CHECK(ws_accumulator_regs(m) <= kWsConsumerRegs);
  }
  CHECK(along_m == 5);
  CHECK(along_n == 5);
  // M and N each in one tile cannot fill a cluster of two: no entry runs; the error says
  // why.
  const GemmOp tiny = gemm(64, 64, 768, Dtype::BF16);
  CHECK(ws_cutlass_sm90_candidates(tiny, env).empty());
  CHECK_THROWS_WITH(choose_ws_mapping(tiny, env),
                    Catch::Contains("no CUTLASS sm90 entry") && Catch::Contains("1x2x1"));
  // M in one 64-row tile: the 1x2x1 entries still run when the N tiles come in pairs.
  for (const auto& m : ws_cutlass_sm90_candidates(gemm(64, 768, 768, Dtype::BF16), env)) {
    INFO(m.describe());
    CHECK(m.cluster_n == 2);
  }
  CHECK_FALSE(ws_cutlass_sm90_candidates(gemm(64, 768, 768, Dtype::BF16), env).empty());
}

TEST_CASE("cutlass_sm90_policy_refused_on_presets_without_wgmma_and_tma", "[mapping][sm90]") {
  for (const char* arch : {"a100", "v100"}) {
    INFO(arch);
    const PresetEnv p(arch, "cutlass_sm90");
    const KernelEnv env = p.env();
    const GemmOp op = gemm(4096, 4096, 4096, Dtype::FP16);
    const IKernel& k = KernelRegistry::choose(op, env.request, env);
    CHECK(k.name() == "multistage_gemm");
    CHECK_THROWS_WITH(k.mapping(op, env), Catch::Contains("mapping.policy cutlass_sm90") &&
                                              Catch::Contains(std::string("preset '") + arch) &&
                                              Catch::Contains("no TMA unit"));
  }
  // On h200 the mma.sync kernel, when asked for by name, refuses it too.
  const PresetEnv h200("h200", "cutlass_sm90");
  const KernelEnv env = h200.env();
  CHECK_THROWS_WITH(
      KernelRegistry::get("multistage_gemm").mapping(gemm(4096, 4096, 4096, Dtype::FP16), env),
      Catch::Contains("mapping.kernel asks for it"));
}
