#include <catch2/catch.hpp>
#include <random>

#include "models/sparse/bsr.h"
#include "sim/core/input_error.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

TEST_CASE("bsr_small_example_by_hand", "[sparse]") {
  // 4x6 with 2x3 blocks: block (0,1) and block (1,0) nonzero.
  std::vector<std::uint32_t> d(24, 0);
  d[0 * 6 + 4] = 5;  // block (0, 1)
  d[3 * 6 + 0] = 7;  // block (1, 0)
  const Bsr b = to_bsr(d, 4, 6, 2, 3);
  CHECK(b.row_ptr == std::vector<int>{0, 1, 2});
  CHECK(b.col_idx == std::vector<int>{1, 0});
  CHECK(b.values == std::vector<std::uint32_t>{0, 5, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0});
  CHECK(from_bsr(b) == d);
}

TEST_CASE("bsr_round_trip_random_block_sparse", "[sparse]") {
  std::mt19937 rng(17);
  const int shapes[][2] = {{2, 1}, {4, 1}, {4, 16}, {16, 16}, {1, 1}, {3, 5}};
  for (const auto& s : shapes) {
    const int br = s[0], bc = s[1], rows = br * (1 + rng() % 6), cols = bc * (1 + rng() % 6);
    std::vector<std::uint32_t> d(std::size_t(rows) * cols, 0);
    for (int bi = 0; bi < rows / br; ++bi)
      for (int bj = 0; bj < cols / bc; ++bj) {
        if (rng() % 3 == 0) continue;  // an all-zero block
        for (int i = 0; i < br; ++i)
          for (int j = 0; j < bc; ++j)
            if (rng() % 2) d[std::size_t(bi * br + i) * cols + bj * bc + j] = 1 + rng() % 1000;
      }
    d[0] = 42;  // never all zero
    INFO(br << "x" << bc << " blocks of " << rows << "x" << cols);
    const Bsr b = to_bsr(d, rows, cols, br, bc);
    CHECK_NOTHROW(validate(b));
    CHECK(from_bsr(b) == d);
    CHECK(b.nnz_blocks() >= 1);
  }
}

TEST_CASE("bsr_rejects_bad_tiling_and_bad_structure", "[sparse]") {
  CHECK_THROWS_WITH(to_bsr(std::vector<std::uint32_t>(30, 1), 5, 6, 2, 3),
                    Contains("do not tile a 5x6"));
  CHECK_THROWS_AS(to_bsr(std::vector<std::uint32_t>(4, 1), 2, 2, 0, 1), InputError);
  Bsr b = to_bsr(std::vector<std::uint32_t>(16, 1), 4, 4, 2, 2);
  std::swap(b.col_idx[0], b.col_idx[1]);
  CHECK_THROWS_WITH(from_bsr(b), Contains("strictly increase"));
  b = to_bsr(std::vector<std::uint32_t>(16, 1), 4, 4, 2, 2);
  b.col_idx[3] = 2;
  CHECK_THROWS_WITH(validate(b), Contains("outside 0..1"));
}
