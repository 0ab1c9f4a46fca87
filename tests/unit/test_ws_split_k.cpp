// Split-K in the warp-specialized persistent kernel's chooser (CUTLASS's stream-K
// scheduler in split-K mode): a GEMM of few output tiles and a long K takes K slices on
// the h100, one of many tiles or a short K takes none, mapping.split_k pins the count,
// the estimate charges each slice after the first a step of the serial reduction, a
// causal product takes neither slices nor clusters, and cluster sizes are checked.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "models/kernels/i_kernel.h"
#include "models/kernels/warp_specialized_mapping.h"
#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "tests/support/preset_env.h"

using namespace stcsim;
using stcsim::test::PresetEnv;

namespace {
GemmOp gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmOp op;
  op.name = "g";
  op.m = m;
  op.n = n;
  op.k = k;
  op.dtype = Dtype::FP16;
  return op;
}
}  // namespace

TEST_CASE("ws_chooser_splits_k_when_few_tiles_leave_sms_idle", "[mapping][sm90]") {
  const PresetEnv h100("h100", "chooser");
  const KernelEnv env = h100.env();
  // ResNet-34's 3x3 convolution at 512 channels, batch 8: 72 x 256 outputs over K 2304.
  const KernelMapping few = choose_ws_mapping(gemm(72, 256, 2304), env);
  INFO(few.describe() << " / " << few.chosen_by);
  CHECK(few.split_k > 1);
  // Thousands of tiles: every SM is busy without slices.
  CHECK(choose_ws_mapping(gemm(8192, 8192, 8192), env).split_k == 1);
  // K of three k-blocks: no slice would hold two.
  CHECK(choose_ws_mapping(gemm(72, 256, 192), env).split_k == 1);
}

TEST_CASE("ws_split_k_is_pinned_by_mapping_split_k", "[mapping][sm90]") {
  PresetEnv h100("h100", "chooser");
  apply_override(h100.cfg, "mapping.split_k=3");
  h100.req = MappingRequest::from(h100.cfg.section("mapping").params);
  CHECK(choose_ws_mapping(gemm(72, 256, 2304), h100.env()).split_k == 3);
  CHECK(choose_ws_mapping(gemm(8192, 8192, 8192), h100.env()).split_k == 3);
}

TEST_CASE("ws_estimate_charges_each_slice_a_serial_reduction_step", "[mapping][sm90]") {
  const PresetEnv h100("h100", "chooser");
  const KernelEnv env = h100.env();
  const GemmOp op = gemm(64, 64, 64 * 64);  // one output tile, 64 k-blocks of 64
  KernelMapping m = choose_ws_mapping(op, env);
  m.cta_m = 64;
  m.cta_n = 64;
  m.cta_k = 64;
  // With one tile the slices run side by side: s slices take 64/s k-blocks each; the
  // last waits for the s - 1 steps of the serial reduction before it, each a lock poll
  // and the fp32 tile (16 KiB) read and written back over the SM's link (two L2 round
  // trips, 2 x 272 cycles, and 2 x 16384 B / 64 B/clk), and a work unit's own step is
  // charged at the slices' average, (s - 1) / s of one.
  const double step = 2 * 272 + 2 * 16384 / 64.0;
  auto est = [&](int s) {
    KernelMapping x = m;
    x.split_k = s;
    return ws_estimate_cycles(op, env, x);
  };
  auto steps = [&](int s) { return (s - 1) * step + double(s - 1) / s * step; };
  // Per k-block cost, from 1 -> 2 slices (32 k-blocks fewer).
  const double kblock = (est(1) - est(2) + steps(2)) / 32;
  CHECK(kblock > 0);
  CHECK(est(4) == Approx(est(1) - 48 * kblock + steps(4)).epsilon(1e-9));
  CHECK(est(16) == Approx(est(1) - 60 * kblock + steps(16)).epsilon(1e-9));
}

TEST_CASE("ws_chooser_never_takes_a_split_whose_last_slices_are_empty", "[mapping][sm90]") {
  const PresetEnv h100("h100", "chooser");
  for (const std::int64_t k : {768, 1152, 2304, 4608}) {
    const KernelMapping m = choose_ws_mapping(gemm(72, 256, k), h100.env());
    const std::int64_t kblocks = (k + m.cta_k - 1) / m.cta_k;
    const std::int64_t per = (kblocks + m.split_k - 1) / m.split_k;
    INFO(k << ": " << m.describe() << " split " << m.split_k);
    CHECK(per * (m.split_k - 1) < kblocks);
  }
}

TEST_CASE("ws_chooser_runs_a_causal_product_without_clusters_or_slices", "[mapping][sm90]") {
  // A causal product drops the tiles above its diagonal: a cluster's block would hold
  // gaps, and its peers would run different K.
  const PresetEnv h100("h100", "chooser");
  GemmOp op = gemm(2048, 2048, 4096);
  op.causal = Causal::Output;
  for (const auto& m : ws_candidates(op, h100.env())) CHECK(m.cluster_m * m.cluster_n == 1);
  const KernelMapping m = choose_ws_mapping(op, h100.env());
  CHECK(m.split_k == 1);
  CHECK(m.cluster_m * m.cluster_n == 1);
}

TEST_CASE("ws_cluster_sizes_are_1_2_or_4_each_way_and_8_at_most", "[mapping][sm90]") {
  auto with = [](const std::string& overrides) {
    PresetEnv p("h100", "chooser");
    for (std::size_t at = 0; at < overrides.size();) {
      const std::size_t end = std::min(overrides.find(' ', at), overrides.size());
      apply_override(p.cfg, overrides.substr(at, end - at));
      at = end + 1;
    }
    p.req = MappingRequest::from(p.cfg.section("mapping").params);
    return choose_ws_mapping(gemm(1024, 1024, 1024), p.env());
  };
  CHECK_THROWS_WITH(with("mapping.cluster_n=3"),
                    Catch::Contains("mapping.cluster_n: 3 CTAs") && Catch::Contains("1, 2 or 4"));
  CHECK_THROWS_WITH(with("mapping.cluster_m=4 mapping.cluster_n=4"), Catch::Contains("at most 8"));
  const KernelMapping two_by_two = with("mapping.cluster_m=2 mapping.cluster_n=2");
  CHECK(two_by_two.cluster_m == 2);
  CHECK(two_by_two.cluster_n == 2);
}
