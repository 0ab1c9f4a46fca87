// The CSR SpMM kernel's plan (row swizzle, stages, gathers), its per-nonzero cost, the
// vector cover of an unstructured mask, and the block chooser's panel kept K.
#include <catch2/catch.hpp>

#include "models/kernels/csr_plan.h"
#include "models/mapping/kernel_mapping.h"
#include "models/sm/block_map_gen.h"

using namespace stcsim;

namespace {
// 6 x 8 mask: row lengths 1, 5, 0, 3, 2, 8 (row 5 full).
BlockMap small_mask() {
  BlockMap m;
  m.block_rows = 6;
  m.block_cols = 8;
  const std::vector<std::vector<int>> rows{{2},       {0, 1, 3, 5, 7}, {},
                                           {1, 2, 3}, {6, 7},          {0, 1, 2, 3, 4, 5, 6, 7}};
  m.row_ptr.push_back(0);
  for (const auto& r : rows) {
    m.col_idx.insert(m.col_idx.end(), r.begin(), r.end());
    m.row_ptr.push_back(int(m.col_idx.size()));
  }
  return m;
}
std::vector<int> row_nnz(const CsrStage& s) {
  std::vector<int> v;
  for (std::size_t w = 0; w < s.rows(); ++w) v.push_back(s.row_nnz(w));
  return v;
}

std::vector<std::int64_t> cols(const CsrStage& s) {
  return std::vector<std::int64_t>(s.cols(), s.cols() + s.col_count());
}
}  // namespace

TEST_CASE("csr_plan_row_swizzle_longest_rows_first", "[unit][csr]") {
  const auto panels = build_csr_panels(small_mask(), 1, 6, 2, 4, 2);
  REQUIRE(panels.size() == 3);
  CHECK(panels[0].rows == std::vector<std::int64_t>{5, 1});  // 8 and 5 nonzeros
  CHECK(panels[1].rows == std::vector<std::int64_t>{3, 4});  // 3 and 2
  CHECK(panels[2].rows == std::vector<std::int64_t>{0, 2});  // 1 and 0
  CHECK(panels[0].nnz == 13);
  // 4 nonzeros per stage: the longest row (8) needs 2 stages.
  REQUIRE(panels[0].stages.size() == 2);
  CHECK(row_nnz(panels[0].stages[0]) == std::vector<int>{4, 4});
  CHECK(row_nnz(panels[0].stages[1]) == std::vector<int>{4, 1});
  // Stage 0 gathers the union of columns {0,1,2,3} (row 5) and {0,1,3,5} (row 1).
  CHECK(cols(panels[0].stages[0]) == std::vector<std::int64_t>{0, 1, 2, 3, 5});
  // Values of row 1 start at its row_ptr (1) x 2 bytes; indices x 4 bytes.
  REQUIRE(panels[0].stages[0].runs() == 2);
  CHECK(panels[0].stages[0].value_run(1) == std::pair<std::uint64_t, std::uint32_t>{2, 8});
  CHECK(panels[0].stages[0].index_run(1) == std::pair<std::uint64_t, std::uint32_t>{4, 16});
  CHECK(panels[2].stages.size() == 1);
  CHECK(row_nnz(panels[2].stages[0]) == std::vector<int>{1, 0});
  // Row 2 has no nonzeros: one run a row with some.
  CHECK(panels[2].stages[0].runs() == 1);
  CHECK(panels[2].stages[0].value_run(0) == std::pair<std::uint64_t, std::uint32_t>{0, 2});
  // The panels moved into the returned vector: their stages still read their own words.
  CHECK(cols(panels[2].stages[0]) == std::vector<std::int64_t>{2});
}

TEST_CASE("csr_plan_batches_stay_apart", "[unit][csr]") {
  // Two batches of 3 rows: panels never mix rows of different batches.
  const auto panels = build_csr_panels(small_mask(), 2, 3, 2, 32, 2);
  REQUIRE(panels.size() == 4);
  for (const auto& p : panels)
    for (auto r : p.rows) CHECK(r / 3 == p.batch);
}

TEST_CASE("csr_cycles_per_nnz_issue_or_fma_bound", "[unit][csr]") {
  // 64 columns, 16 lanes: FMA pipe 4 cycles; fp16 issue = LDG 1 + CVT 1 + FMA 2 + LDS 0.5.
  CHECK(csr_cycles_per_nnz(64, 16, Dtype::FP16) == Approx(4.5));
  // fp32 inputs need no conversion: FMA-pipe bound.
  CHECK(csr_cycles_per_nnz(64, 16, Dtype::TF32) == Approx(4.0));
  // Twice the lanes (H100): issue bound.
  CHECK(csr_cycles_per_nnz(64, 32, Dtype::FP16) == Approx(4.5));
}

TEST_CASE("csr_plan_rejects_block_maps", "[unit][csr]") {
  BlockMap m = small_mask();
  m.r = 2;
  CHECK_THROWS_WITH(build_csr_panels(m, 1, 6, 4, 32, 2), Catch::Contains("1x1"));
}

TEST_CASE("cover_block_map_keeps_blocks_with_any_nonzero", "[unit][csr]") {
  const BlockMap v = cover_block_map(small_mask(), 2, 1);
  REQUIRE(v.block_rows == 3);
  // Rows 0-1: columns {0,1,2,3,5,7}; rows 2-3: {1,2,3}; rows 4-5: all 8.
  CHECK(v.row_ptr == std::vector<int>{0, 6, 9, 17});
  CHECK(std::vector<int>(v.col_idx.begin(), v.col_idx.begin() + 6) ==
        std::vector<int>{0, 1, 2, 3, 5, 7});
  const BlockMap b = cover_block_map(small_mask(), 2, 4);
  CHECK(b.row_ptr == std::vector<int>{0, 2, 3, 5});
}

TEST_CASE("panel_kept_k_is_the_union_of_rows", "[unit][csr][mapping]") {
  // Panels of 2 rows of the 1x1 mask: kept K = distinct columns of both rows.
  CHECK(panel_kept_k(small_mask(), 6, 1, 8, 2) == std::vector<std::int64_t>{6, 3, 8});
  CHECK(panel_kept_k(small_mask(), 6, 1, 8, 4) == std::vector<std::int64_t>{6, 8});
}

TEST_CASE("csr_tile_cols_wide_for_large_n_narrow_for_skinny", "[unit][csr]") {
  // A100 lanes: 128 columns are FMA-bound (8 cycles per 128 FMAs) and beat 64 (4.5 per 64).
  CHECK(csr_tile_cols(4096, 16, Dtype::FP16) == 128);
  CHECK(csr_cycles_per_nnz(128, 16, Dtype::FP16) == Approx(8.0));
  // Decode-sized N: a 32-column tile wastes nothing.
  CHECK(csr_tile_cols(8, 16, Dtype::FP16) == 32);
  CHECK(csr_tile_cols(64, 16, Dtype::FP16) == 64);
  CHECK(csr_tile_cols(4096, 32, Dtype::FP16) == 128);
}
