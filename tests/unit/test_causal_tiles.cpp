// The causal mask in the multistage kernel's CTA list (models/kernels/multistage_gemm.cpp),
// checked against a brute-force walk of the mask: a scores tile is launched exactly when
// some (row, column) of it is kept, and a context tile's k range covers every column its
// rows keep and stops within one k-tile of the last.
#include <catch2/catch.hpp>

#include "models/kernels/multistage_gemm.h"

using namespace stcsim;

namespace {

KernelMapping tile(int cta_m, int cta_n, int cta_k) {
  KernelMapping m;
  m.cta_m = cta_m, m.cta_n = cta_n, m.cta_k = cta_k, m.warp_m = 32, m.warp_n = 32;
  m.stages = 3, m.swizzle = 3, m.split_k = 1;
  return m;
}

}  // namespace

TEST_CASE("causal_scores_launch_the_tiles_the_mask_keeps", "[mapping][attention]") {
  for (const std::int64_t s : {64, 200, 1000})
    for (const auto& map : {tile(128, 64, 32), tile(64, 128, 64), tile(256, 128, 32)}) {
      GemmOp op;
      op.m = op.n = s, op.k = 64, op.batch = 3, op.causal = Causal::Output;
      const auto ctas = multistage_cta_order(op, map);
      std::int64_t want = 0;
      for (std::int64_t tm = 0; tm * map.cta_m < s; ++tm)
        for (std::int64_t tn = 0; tn * map.cta_n < s; ++tn) {
          bool kept = false;  // brute force: any (i, j), j <= i, in the tile
          for (std::int64_t i = tm * map.cta_m; i < std::min(s, (tm + 1) * map.cta_m); ++i)
            kept = kept || tn * map.cta_n <= i;
          want += kept;
        }
      INFO(s << " tokens, tile " << map.cta_m << "x" << map.cta_n);
      CHECK(std::int64_t(ctas.size()) == 3 * want);
      for (const auto& c : ctas) {
        CHECK(std::int64_t(c.tile_n) * map.cta_n <
              std::min<std::int64_t>(s, (c.tile_m + 1) * map.cta_m));
        CHECK(c.k_begin == 0);
        CHECK(c.k_end == 64);
      }
      op.causal = Causal::None;
      CHECK(multistage_cta_order(op, map).size() >= ctas.size());
    }
}

TEST_CASE("causal_context_k_loops_stop_after_the_last_rows_column", "[mapping][attention]") {
  for (const std::int64_t s : {64, 200, 1000})
    for (const auto& map : {tile(128, 64, 32), tile(64, 128, 64)}) {
      GemmOp op;
      op.m = op.k = s, op.n = 128, op.causal = Causal::A;
      const auto ctas = multistage_cta_order(op, map);
      GemmOp full = op;
      full.causal = Causal::None;
      REQUIRE(ctas.size() == multistage_cta_order(full, map).size());  // every tile has work
      for (const auto& c : ctas) {
        const std::int64_t last_row = std::min<std::int64_t>(s, (c.tile_m + 1) * map.cta_m) - 1;
        INFO(s << " tokens, tile m " << c.tile_m << ": k [" << c.k_begin << ", " << c.k_end << ")");
        CHECK(c.k_begin == 0);
        CHECK(c.k_end > last_row);                            // covers column last_row
        CHECK(c.k_end <= std::min(s, last_row + map.cta_k));  // and no k-tile past it
      }
    }
}

TEST_CASE("causal_fraction_counts_the_kept_products", "[mapping][attention]") {
  GemmOp op;
  op.m = op.n = 5, op.k = 8, op.causal = Causal::Output;
  CHECK(op.flops() == 2.0 * 15 * 8);  // 1 + 2 + 3 + 4 + 5 kept scores
  op.n = 3;                           // fewer keys than queries: rows 2.. keep all 3
  CHECK(causal_elements(5, 3) == 1 + 2 + 3 + 3 + 3);
  op.causal = Causal::A;
  op.m = 4, op.k = 6, op.n = 2;
  CHECK(op.products() == double(1 + 2 + 3 + 4) * 2);
  // Compulsory bytes: the kept triangle of P, all of V^T, all of O.
  CHECK(op.min_bytes() == 2.0 * 10 + 2.0 * 2 * 6 + 2.0 * 4 * 2);
}
