#include "models/sparse/bsr.h"

#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

static void check_tiling(int rows, int cols, int br, int bc) {
  if (br <= 0 || bc <= 0)
    throw InputError("BSR block must be at least 1x1, got " + std::to_string(br) + "x" +
                     std::to_string(bc));
  if (rows < 0 || cols < 0 || rows % br || cols % bc)
    throw InputError("BSR: " + std::to_string(br) + "x" + std::to_string(bc) +
                     " blocks do not tile a " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " matrix");
}

Bsr to_bsr(const std::vector<std::uint32_t>& dense, int rows, int cols, int block_rows,
           int block_cols) {
  check_tiling(rows, cols, block_rows, block_cols);
  if (dense.size() != std::size_t(rows) * cols)
    throw std::invalid_argument("to_bsr: " + std::to_string(dense.size()) + " elements for a " +
                                std::to_string(rows) + "x" + std::to_string(cols) + " matrix");
  Bsr b{rows, cols, block_rows, block_cols, {0}, {}, {}};
  const int nbr = rows / block_rows, nbc = cols / block_cols;
  auto at = [&](int bi, int bj, int i, int j) {
    return dense[std::size_t(bi * block_rows + i) * cols + std::size_t(bj) * block_cols + j];
  };
  for (int bi = 0; bi < nbr; ++bi) {
    for (int bj = 0; bj < nbc; ++bj) {
      bool any = false;
      for (int i = 0; i < block_rows && !any; ++i)
        for (int j = 0; j < block_cols && !any; ++j) any = at(bi, bj, i, j) != 0;
      if (!any) continue;
      b.col_idx.push_back(bj);
      for (int i = 0; i < block_rows; ++i)
        for (int j = 0; j < block_cols; ++j) b.values.push_back(at(bi, bj, i, j));
    }
    b.row_ptr.push_back(b.nnz_blocks());
  }
  return b;
}

void validate(const Bsr& b) {
  check_tiling(b.rows, b.cols, b.block_rows, b.block_cols);
  const int nbr = b.rows / b.block_rows, nbc = b.cols / b.block_cols;
  if (b.row_ptr.size() != std::size_t(nbr) + 1 || b.row_ptr.front() != 0 ||
      b.row_ptr.back() != b.nnz_blocks())
    throw InputError("BSR row_ptr must have " + std::to_string(nbr + 1) +
                     " entries from 0 to the number of blocks (" + std::to_string(b.nnz_blocks()) +
                     ")");
  if (b.values.size() != std::size_t(b.nnz_blocks()) * b.block_rows * b.block_cols)
    throw InputError("BSR values: " + std::to_string(b.values.size()) + " elements for " +
                     std::to_string(b.nnz_blocks()) + " blocks of " + std::to_string(b.block_rows) +
                     "x" + std::to_string(b.block_cols));
  // row_ptr must be non-decreasing before any col_idx is read through it.
  for (int bi = 0; bi < nbr; ++bi)
    if (b.row_ptr[bi] > b.row_ptr[bi + 1])
      throw InputError("BSR row_ptr decreases at block row " + std::to_string(bi));
  if (b.col_idx.size() != std::size_t(b.nnz_blocks()))
    throw InputError("BSR col_idx has " + std::to_string(b.col_idx.size()) + " entries for " +
                     std::to_string(b.nnz_blocks()) + " blocks");
  for (int bi = 0; bi < nbr; ++bi) {
    for (int p = b.row_ptr[bi]; p < b.row_ptr[bi + 1]; ++p) {
      if (b.col_idx[p] < 0 || b.col_idx[p] >= nbc)
        throw InputError("BSR block " + std::to_string(p) + ": block column " +
                         std::to_string(b.col_idx[p]) + " outside 0.." + std::to_string(nbc - 1));
      if (p > b.row_ptr[bi] && b.col_idx[p] <= b.col_idx[p - 1])
        throw InputError("BSR block row " + std::to_string(bi) +
                         ": block columns must strictly increase");
    }
  }
}

std::vector<std::uint32_t> from_bsr(const Bsr& b) {
  validate(b);
  std::vector<std::uint32_t> dense(std::size_t(b.rows) * b.cols, 0);
  const int nbr = b.rows / b.block_rows, bsz = b.block_rows * b.block_cols;
  for (int bi = 0; bi < nbr; ++bi)
    for (int p = b.row_ptr[bi]; p < b.row_ptr[bi + 1]; ++p)
      for (int i = 0; i < b.block_rows; ++i)
        for (int j = 0; j < b.block_cols; ++j)
          dense[std::size_t(bi * b.block_rows + i) * b.cols +
                std::size_t(b.col_idx[p]) * b.block_cols + j] =
              b.values[std::size_t(p) * bsz + i * b.block_cols + j];
  return dense;
}

}  // namespace stcsim::sparse
