// The synthetic block-map generator and the block kernel's panel plans.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/common/splitmix64.h"
#include "models/kernels/block_plan.h"
#include "models/sm/block_map_gen.h"
#include "sim/core/input_error.h"

using namespace stcsim;

TEST_CASE("block_map_uniform_exact_count_deterministic_nested", "[unit][block]") {
  const BlockMap a = make_block_map(256, 512, 32, 32, 0.75, BlockDist::Uniform, 7);
  const BlockMap b = make_block_map(256, 512, 32, 32, 0.75, BlockDist::Uniform, 7);
  CHECK(a.col_idx == b.col_idx);
  CHECK(a.block_rows == 8);
  CHECK(a.block_cols == 16);
  for (int i = 0; i < 8; ++i) CHECK(a.row_ptr[i + 1] - a.row_ptr[i] == 4);
  // Nested: every block kept at 0.75 is kept at 0.5.
  const BlockMap h = make_block_map(256, 512, 32, 32, 0.5, BlockDist::Uniform, 7);
  for (int i = 0; i < 8; ++i)
    for (int q = a.row_ptr[i]; q < a.row_ptr[i + 1]; ++q)
      CHECK(std::find(h.col_idx.begin() + h.row_ptr[i], h.col_idx.begin() + h.row_ptr[i + 1],
                      a.col_idx[q]) != h.col_idx.begin() + h.row_ptr[i + 1]);
}

TEST_CASE("block_map_skewed_same_total_unequal_rows", "[unit][block]") {
  const BlockMap u = make_block_map(2048, 2048, 32, 32, 0.75, BlockDist::Uniform, 1);
  const BlockMap s = make_block_map(2048, 2048, 32, 32, 0.75, BlockDist::Skewed, 1);
  CHECK(s.nnz() == u.nnz());
  int mx = 0;
  for (std::size_t i = 0; i + 1 < s.row_ptr.size(); ++i)
    mx = std::max(mx, s.row_ptr[i + 1] - s.row_ptr[i]);
  CHECK(mx == 64);  // the heaviest rows are full
}

// Each row keeps its n lowest (hash, column) pairs under splitmix64; the generator selects
// them among the columns under a cut, the reference sorts all of them: the same columns,
// row by row.
TEST_CASE("block_map_rows_keep_their_lowest_hashes_as_a_full_sort_does", "[unit][block]") {
  const std::int64_t shapes[][2] = {{1, 1}, {3, 7}, {17, 64}, {40, 333}, {8, 4096}};
  for (const auto& [rows, cols] : shapes)
    for (const double s : {0.0, 0.1, 0.5, 0.9, 0.98, 0.999, 1.0})
      for (const BlockDist d : {BlockDist::Uniform, BlockDist::Skewed})
        for (const std::uint64_t seed : {0ull, 1ull, 12345ull}) {
          const BlockMap b = make_block_map(rows, cols, 1, 1, s, d, seed);
          for (std::int64_t i = 0; i < b.block_rows; ++i) {
            // Uniform rows keep round((1-S) x columns) each; skewed rows their own share
            // (its total checked below), taken from the map.
            const int n = d == BlockDist::Uniform
                              ? int(std::llround((1.0 - s) * double(cols)))
                              : b.row_ptr[std::size_t(i) + 1] - b.row_ptr[std::size_t(i)];
            std::vector<std::pair<std::uint64_t, int>> h;
            for (std::int64_t j = 0; j < cols; ++j)
              h.emplace_back(splitmix64(seed ^ splitmix64(std::uint64_t(i * cols + j))), int(j));
            std::sort(h.begin(), h.end());
            std::vector<int> want;
            for (int q = 0; q < n; ++q) want.push_back(h[std::size_t(q)].second);
            std::sort(want.begin(), want.end());
            const std::vector<int> got(b.col_idx.begin() + b.row_ptr[std::size_t(i)],
                                       b.col_idx.begin() + b.row_ptr[std::size_t(i) + 1]);
            INFO(rows << "x" << cols << " sparsity " << s << " row " << i);
            REQUIRE(got == want);
          }
          CHECK(b.nnz() == (d == BlockDist::Uniform
                                ? std::llround((1.0 - s) * double(cols)) * rows
                                : std::llround((1.0 - s) * double(cols) * double(rows))));
        }
}

// A floor of blocks a row (the validation harness keeps at least one): a narrow weight at
// 90% keeps round(0.1 x 2) = 0 blocks a row without it, one with it; rows above the floor
// keep their count, and the kept sets stay nested across sparsities.
TEST_CASE("block_map_floor_keeps_at_least_that_many_a_row", "[unit][block]") {
  const BlockMap none = make_block_map(256, 64, 32, 32, 0.9, BlockDist::Uniform, 1);
  CHECK(none.nnz() == 0);
  const BlockMap one = make_block_map(256, 64, 32, 32, 0.9, BlockDist::Uniform, 1, 1);
  for (std::size_t i = 0; i + 1 < one.row_ptr.size(); ++i)
    CHECK(one.row_ptr[i + 1] - one.row_ptr[i] == 1);
  const BlockMap wide = make_block_map(256, 512, 32, 32, 0.5, BlockDist::Uniform, 1, 1);
  const BlockMap wide0 = make_block_map(256, 512, 32, 32, 0.5, BlockDist::Uniform, 1);
  CHECK(wide.col_idx == wide0.col_idx);  // 8 a row: the floor of one changes nothing
  const BlockMap all = make_block_map(256, 64, 32, 32, 0.9, BlockDist::Uniform, 1, 5);
  CHECK(all.nnz() == 8 * 2);  // capped at the row's two blocks
  const BlockMap half = make_block_map(256, 64, 32, 32, 0.5, BlockDist::Uniform, 1, 1);
  for (int i = 0; i < 8; ++i)  // one's block is the lowest hash, kept at 0.5 too
    CHECK(std::find(half.col_idx.begin() + half.row_ptr[i],
                    half.col_idx.begin() + half.row_ptr[i + 1],
                    one.col_idx[std::size_t(i)]) != half.col_idx.begin() + half.row_ptr[i + 1]);
  CHECK_THROWS_AS(make_block_map(256, 64, 32, 32, 0.9, BlockDist::Uniform, 1, -1), InputError);
}

TEST_CASE("block_plan_kept_k_ktiles_and_bytes", "[unit][block]") {
  // 64 x 256 weight, 32x32 blocks; block row 0 keeps columns 1 and 3, row 1 none.
  BlockMap m;
  m.r = m.c = 32;
  m.block_rows = 2;
  m.block_cols = 8;
  m.row_ptr = {0, 2, 2};
  m.col_idx = {1, 3};
  GemmOp kop;
  kop.m = 64;
  kop.n = 128;
  kop.k = 256;
  const auto p = build_panel_plans(m, kop, 32, 64, 2.0);
  REQUIRE(p.size() == 2);
  CHECK(p[0].kept_k == 64);
  REQUIRE(p[0].ktiles.size() == 1);
  const auto& t = p[0].ktiles[0];
  CHECK(t.k_elems == 64);
  CHECK(t.blocks == 2);
  REQUIRE(t.b_segs.size() == 2);  // columns 32..63 and 96..127: not adjacent
  CHECK(t.b_segs[0] == std::make_pair(std::int64_t(32), 32));
  CHECK(t.b_segs[1] == std::make_pair(std::int64_t(96), 32));
  REQUIRE(t.a_runs.size() == 1);  // both blocks of the row, contiguous in BSR storage
  CHECK(t.a_runs[0].second == 2u * 32 * 32 * 2);
  CHECK(p[1].kept_k == 0);
  CHECK(p[1].ktiles.empty());
  CHECK(panel_imbalance(p, 2, 1, 1) == Approx(2.0));
}
