// Block-wise magnitude pruning of weight matrices [rows = N (output channels), cols = K],
// row-major with K contiguous.
//
// Blocks are r x c (r along N, c along K), cut from the top-left corner. Edge rule: when
// rows or cols are not multiples of r or c, the last block row / column holds partial
// blocks (fewer real elements); they are scored and pruned like the others, and a
// block-sparse kernel would pad them with zeros (the trace's BSR does).
//
// Score of a block: the mean of the squares of its real elements, i.e. its squared L2
// norm over its area; for whole blocks this orders blocks exactly as the L2 norm does,
// and it lets a partial edge block compete on the same scale. A NaN element makes the
// score +inf (the block is kept, as prune_magnitude keeps NaNs). Elements are zero when
// all their bits are (so -0.0 counts as a nonzero, as in models/sparse).
//
// Selection to a target fraction S of the weights: blocks are visited from the smallest
// score; equal scores go in decreasing (matrix, block index) order, so the block with the
// lower index is kept, as prune_magnitude keeps the lower index. A block is pruned while
// pruned + area / 2 <= S x total, so the achieved fraction is within half of the largest
// block's area of the target, and every pruned block scores <= every kept one.
#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse/nm_pattern.h"

namespace stcsim::workloads {

struct BlockGrid {
  std::int64_t rows = 0, cols = 0;
  int r = 1, c = 1;

  std::int64_t grid_rows() const { return (rows + r - 1) / r; }  // panels
  std::int64_t grid_cols() const { return (cols + c - 1) / c; }  // blocks per panel
  std::int64_t count() const { return grid_rows() * grid_cols(); }
  std::int64_t area(std::int64_t block) const;  // real elements of block (row-major index)
};

bool is_zero_bits(float v);

// Row-major over the grid.
std::vector<double> block_scores(const std::vector<float>& w, const BlockGrid& g);

// For each matrix, a flag per block (1 = prune). One matrix: per-layer pruning; every
// layer's: one global threshold. target in [0, 1).
std::vector<std::vector<std::uint8_t>> select_blocks_to_prune(
    const std::vector<BlockGrid>& grids, const std::vector<std::vector<double>>& scores,
    double target);

void zero_blocks(std::vector<float>& w, const BlockGrid& g, const std::vector<std::uint8_t>& prune);

// [j] = how many panels (block rows of r rows) hold exactly j blocks with a nonzero
// element, j = 0 .. grid_cols().
std::vector<std::int64_t> panel_histogram(const std::vector<float>& w, const BlockGrid& g);

// N:M magnitude pruning along K through models/sparse prune_magnitude (cols % M == 0).
std::vector<float> prune_nm_matrix(const std::vector<float>& w, std::int64_t rows,
                                   std::int64_t cols, sparse::NmPattern p);

}  // namespace stcsim::workloads
