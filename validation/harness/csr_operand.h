// The CSR operand of the CSR SpMM kernel (validation/cuda/csr_spmm.h) and its host
// reference. No CUDA: tested on the CPU (tests/validation/test_csr_operand.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "validation/harness/operands.h"

namespace stcsim::validation {

struct CsrOperand {
  int rows = 0, cols = 0;             // W is rows x cols (N x K)
  std::vector<std::uint16_t> values;  // fp16, row by row, increasing column
  std::vector<int> col_idx, row_ptr;  // row_ptr has rows + 1 entries
  std::vector<int> row_order;         // launch order: longest rows first (row_swizzle)
  std::int64_t nnz() const { return std::int64_t(values.size()); }
};

// Unstructured pruning with uniform rows (the simulator's `--unstructured S`, default
// `--block-dist uniform`): each row keeps its max(1, round((1 - sparsity) * cols)) values
// of largest magnitude (ties: the lower column). Throws InputError unless 0 <= sparsity < 1.
CsrOperand prune_to_csr(const Fp16Matrix& w, int rows, int cols, double sparsity);

// Sputnik's row swizzle: rows sorted by nonzero count, longest first (stable).
std::vector<int> row_swizzle(const std::vector<int>& row_ptr);

// The kernel's column tile for M tokens: 128, 64 or 32, the widest not wider than M
// (32 below 64).
int csr_tile_cols_for(int m);

// Y^T[row][col] as the kernel computes it: fp32 fmaf over the row's nonzeros in CSR
// order, from +0 (fp32 bits). xt is X^T [K, M] row-major.
std::uint32_t csr_reference_element(const CsrOperand& w, const Fp16Matrix& xt, int m, int row,
                                    int col);

// X^T [K, M] of x [M, K].
Fp16Matrix transpose(const Fp16Matrix& x, int rows, int cols);

}  // namespace stcsim::validation
