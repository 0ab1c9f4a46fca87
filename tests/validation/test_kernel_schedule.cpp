// The CUDA kernels' schedule is the simulator's: the same swizzled shared-memory layout,
// the same CTA launch order, and ldmatrix phases whose bank conflicts the simulator's
// per-warp wavefront counts describe (models/kernels/smem_tile_layout.cpp). Checked on the CPU
// with the kernels' own address arithmetic (validation/cuda/fragment_addressing.h).
#include <catch2/catch.hpp>
#include <set>

#include "models/kernels/multistage_gemm.h"
#include "models/kernels/smem_tile_layout.h"
#include "models/smem/banked_smem.h"
#include "validation/cuda/fragment_addressing.h"

using namespace stcsim;
using namespace stcsim::validation;

namespace {
KernelMapping mapping_of(const KernelTile& t, int swizzle) {
  KernelMapping m;
  m.cta_m = t.cta_m, m.cta_n = t.cta_n, m.cta_k = t.cta_k, m.warp_m = t.warp_m, m.warp_n = t.warp_n;
  m.stages = t.stages, m.swizzle = swizzle, m.split_k = 1, m.layout = SmemLayout::Swizzled;
  return m;
}
}  // namespace

TEST_CASE("kernel_smem_layout_is_the_simulators_swizzle", "[validation]") {
  for (int row_bytes : {32, 64, 128, 256})
    for (int rows : {16, 64, 128, 256})
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < row_bytes / 16; ++c)
          REQUIRE(swizzled_offset(r, c, row_bytes, rows) ==
                  smem_offset(SmemLayout::Swizzled, r, c, row_bytes, rows));
}

TEST_CASE("kernel_cta_order_is_the_simulators_launch_order", "[validation]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  // compiled_tiles(Bsr): every tile compiled for any kernel (the BSR list is the superset).
  for (const KernelTile& t : compiled_tiles(GemmKernel::Bsr))
    for (int swizzle : {1, 3, 8}) {
      GemmOp op;
      op.m = t.cta_m * 5, op.n = t.cta_n * 7, op.k = t.cta_k * 2;
      const std::vector<CtaTask> ctas = multistage_cta_order(op, mapping_of(t, swizzle));
      REQUIRE(ctas.size() == 35u);
      for (int i = 0; i < 35; ++i) {
        const CtaCoord c = rasterize(i, 5, 7, swizzle);
        CHECK(c.tm == ctas[i].tile_m);
        CHECK(c.tn == ctas[i].tile_n);
      }
    }
}

TEST_CASE("kernel_ldmatrix_phases_cost_what_the_simulator_counts", "[validation]") {
  BankedSmem smem(BankedSmemSpec{32, 4, 30});
  for (const bool sparse : {false, true})
    for (const KernelTile& t : compiled_tiles(GemmKernel::Bsr)) {
      const MmaKind kind{Dtype::FP16, sparse ? NmSparsity{2, 4} : NmSparsity{}};
      const auto sim = ldmatrix_wavefronts(mapping_of(t, 1), kind, smem);
      const int k_sub = sparse ? 32 : 16, a_row = sparse ? t.cta_k : 2 * t.cta_k,
                b_row = 2 * t.cta_k;
      const std::uint32_t b_base =
          std::uint32_t(t.cta_m * a_row);  // B after the A values, as the simulator puts it
      for (int w = 0; w < t.warps(); ++w) {
        const int wm0 = warp_row0(w, t.cta_m, t.warp_m),
                  wn0 = warp_col0(w, t.cta_m, t.warp_m, t.warp_n);
        for (int ks = 0; ks < t.cta_k / k_sub; ++ks) {
          int a_total = 0, b_total = 0;
          // One phase per 8 lanes of each ldmatrix.x4 the warp issues.
          auto x4 = [&](int& total, auto addr_of_lane) {
            for (int phase = 0; phase < 4; ++phase) {
              std::vector<std::uint32_t> addrs;
              for (int l = 8 * phase; l < 8 * phase + 8; ++l) addrs.push_back(addr_of_lane(l));
              total += smem.wavefronts(addrs, 16);
            }
          };
          for (int i = 0; i < t.warp_m / 16; ++i)
            x4(a_total, [&](int l) {
              return swizzled_offset(a_ldm_row(l, wm0, i), a_ldm_chunk(l, ks), a_row, t.cta_m);
            });
          for (int j = 0; j < t.warp_n / 8; j += sparse ? 1 : 2)
            x4(b_total, [&](int l) {
              return b_base + (sparse ? swizzled_offset(b32_ldm_row(l, wn0, j),
                                                        b32_ldm_chunk(l, ks), b_row, t.cta_n)
                                      : swizzled_offset(b16_ldm_row(l, wn0, j),
                                                        b16_ldm_chunk(l, ks), b_row, t.cta_n));
            });
          // The simulator adds the metadata fragment as warp_m x 32 x 4 bits of
          // conflict-free loads at 128 bytes per wavefront (kernel_launch.cpp).
          const int meta = sparse ? (t.warp_m * 32 / 8 + 127) / 128 : 0;
          INFO("tile " << t.str() << (sparse ? " 2:4" : " dense") << " warp " << w << " k-sub "
                       << ks);
          CHECK(a_total + meta == sim[w][ks].a);
          CHECK(b_total == sim[w][ks].b);
        }
      }
    }
}

TEST_CASE("kernel_lanes_cover_their_fragments_once", "[validation]") {
  // Every accumulator element of a warp tile is owned by exactly one (lane, i, j, r).
  for (const KernelTile& t : compiled_tiles(GemmKernel::Bsr)) {
    std::set<std::pair<int, int>> seen;
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < t.warp_m / 16; ++i)
        for (int j = 0; j < t.warp_n / 8; ++j)
          for (int r = 0; r < 4; ++r) seen.insert({acc_row(l, 0, i, r), acc_col(l, 0, j, r)});
    CHECK(seen.size() == std::size_t(t.warp_m) * t.warp_n);
  }
}
