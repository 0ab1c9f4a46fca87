// Synthetic block maps for `--gemm` runs with `--block RxC@S`: which blocks of a
// weight W [rows, cols] survive block pruning to sparsity S, deterministic by seed.
//   uniform: every block row keeps round((1-S) * block_cols) blocks (ties resolved by
//            a seeded hash), so CTAs get equal work up to rounding;
//   skewed:  block rows get a Zipf-like share of the kept blocks (share of the row
//            ranked i-th by a seeded shuffle ~ 1/i), capped at a full row, the excess
//            water-filled to the others; the same total count as uniform.
// Kept sets are nested: a block kept at sparsity S is kept at every lower S (each
// row keeps its lowest-hash columns), so a sparsity sweep removes work monotonically.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/gemm_op.h"

namespace stcsim {

enum class BlockDist { Uniform, Skewed };
BlockDist parse_block_dist(const std::string& s);  // InputError for others

// min_per_row: every block row keeps at least this many blocks (capped at a full row), as a
// map pruned by magnitude with a floor does (the validation harness keeps one a row); rows
// raised to it add to the total. 0: no floor.
BlockMap make_block_map(std::int64_t rows, std::int64_t cols, int r, int c, double sparsity,
                        BlockDist dist, std::uint64_t seed, int min_per_row = 0);

// The r x c blocks that cover the nonzeros of an unstructured (1x1) mask of a weight
// [rows, cols]: a block is kept when any of its elements is (nothing is re-pruned).
BlockMap cover_block_map(const BlockMap& mask, int r, int c);

}  // namespace stcsim
