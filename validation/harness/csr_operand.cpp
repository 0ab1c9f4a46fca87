#include "validation/harness/csr_operand.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "models/numerics/float_format.h"
#include "sim/core/input_error.h"

namespace stcsim::validation {

using numerics::FloatFormat;

CsrOperand prune_to_csr(const Fp16Matrix& w, int rows, int cols, double sparsity) {
  if (!(sparsity >= 0 && sparsity < 1)) throw InputError("CSR sparsity must be in [0, 1)");
  if (w.size() != std::size_t(rows) * cols) throw InputError("prune_to_csr: matrix size");
  const int keep = std::max(1, int(std::lround((1 - sparsity) * cols)));
  CsrOperand op;
  op.rows = rows;
  op.cols = cols;
  op.row_ptr.push_back(0);
  std::vector<int> idx(cols);
  for (int r = 0; r < rows; ++r) {
    const std::uint16_t* row = w.data() + std::size_t(r) * cols;
    std::iota(idx.begin(), idx.end(), 0);
    // Magnitude order: fp16 bits without the sign compare like the magnitudes (no NaN here).
    std::stable_sort(idx.begin(), idx.end(),
                     [&](int a, int b) { return (row[a] & 0x7FFF) > (row[b] & 0x7FFF); });
    std::vector<int> kept(idx.begin(), idx.begin() + keep);
    std::sort(kept.begin(), kept.end());
    for (int c : kept) {
      op.values.push_back(row[c]);
      op.col_idx.push_back(c);
    }
    op.row_ptr.push_back(int(op.values.size()));
  }
  op.row_order = row_swizzle(op.row_ptr);
  return op;
}

std::vector<int> row_swizzle(const std::vector<int>& row_ptr) {
  std::vector<int> order(row_ptr.size() - 1);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return row_ptr[a + 1] - row_ptr[a] > row_ptr[b + 1] - row_ptr[b];
  });
  return order;
}

int csr_tile_cols_for(int m) { return m >= 128 ? 128 : m >= 64 ? 64 : 32; }

std::uint32_t csr_reference_element(const CsrOperand& w, const Fp16Matrix& xt, int m, int row,
                                    int col) {
  float acc = 0.0f;
  for (int i = w.row_ptr[row]; i < w.row_ptr[row + 1]; ++i) {
    const float a = float(numerics::decode(FloatFormat::FP16, w.values[i]));
    const float x =
        float(numerics::decode(FloatFormat::FP16, xt[std::size_t(w.col_idx[i]) * m + col]));
    acc = std::fmaf(a, x, acc);  // correctly rounded, like the GPU's FFMA
  }
  std::uint32_t bits;
  std::memcpy(&bits, &acc, 4);
  return bits;
}

Fp16Matrix transpose(const Fp16Matrix& x, int rows, int cols) {
  Fp16Matrix t(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t[std::size_t(c) * rows + r] = x[std::size_t(r) * cols + c];
  return t;
}

}  // namespace stcsim::validation
