// Block-sparse rows (BSR) for r x c blocks: the matrix is cut into block_rows x
// block_cols blocks and only blocks with a nonzero element are stored (an element is
// zero when all its bits are). For block-wise pruning on the output-channel dimension
// (2x1, 4x1, 4x16, ...) and the square blocks of GPU block-sparse kernels.
#pragma once
#include <cstdint>
#include <vector>

namespace stcsim::sparse {

struct Bsr {
  int rows = 0, cols = 0;              // of the dense matrix
  int block_rows = 1, block_cols = 1;  // r x c
  std::vector<int> row_ptr;            // block rows + 1: blocks of block row i are
                                       // [row_ptr[i], row_ptr[i+1])
  std::vector<int> col_idx;            // block column of each stored block, increasing
  std::vector<std::uint32_t> values;   // stored blocks, each r x c row-major

  int nnz_blocks() const { return int(col_idx.size()); }
};

// `dense` is rows x cols row-major. Throws InputError unless the blocks tile the matrix.
Bsr to_bsr(const std::vector<std::uint32_t>& dense, int rows, int cols, int block_rows,
           int block_cols);
// The dense matrix back (zeros outside stored blocks). Validates first.
std::vector<std::uint32_t> from_bsr(const Bsr& b);
// Sizes, pointer monotonicity, column range and order; throws InputError.
void validate(const Bsr& b);

}  // namespace stcsim::sparse
