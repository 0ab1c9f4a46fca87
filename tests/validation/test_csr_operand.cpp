// The CSR SpMM's host side (validation/harness/csr_operand.h): uniform-row pruning, the
// row swizzle, and the reference the GPU result is compared with bit for bit (the
// kernel's sequential fp32 fmaf chain in CSR order, not an exact sum).
#include <catch2/catch.hpp>
#include <cstring>

#include "validation/harness/csr_operand.h"

using namespace stcsim::validation;

TEST_CASE("csr_prune_keeps_largest_per_row_in_column_order", "[validation][csr]") {
  const int rows = 37, cols = 200;
  const Fp16Matrix w = random_fp16(rows, cols, 5);
  for (double sp : {0.9, 0.95, 0.98}) {
    INFO(sp);
    const CsrOperand op = prune_to_csr(w, rows, cols, sp);
    const int keep = std::max(1, int(std::lround((1 - sp) * cols)));
    REQUIRE(op.row_ptr.size() == std::size_t(rows + 1));
    CHECK(op.nnz() == std::int64_t(rows) * keep);
    for (int r = 0; r < rows; ++r) {
      CHECK(op.row_ptr[r + 1] - op.row_ptr[r] == keep);
      std::uint16_t smallest_kept = 0x7FFF;
      for (int i = op.row_ptr[r]; i < op.row_ptr[r + 1]; ++i) {
        if (i > op.row_ptr[r]) CHECK(op.col_idx[i] > op.col_idx[i - 1]);
        CHECK(op.values[i] == w[std::size_t(r) * cols + op.col_idx[i]]);
        smallest_kept = std::min<std::uint16_t>(smallest_kept, op.values[i] & 0x7FFF);
      }
      // Every dropped value is no larger than every kept one.
      int larger_dropped = 0;
      for (int c = 0; c < cols; ++c)
        if ((w[std::size_t(r) * cols + c] & 0x7FFF) > smallest_kept &&
            std::find(op.col_idx.begin() + op.row_ptr[r], op.col_idx.begin() + op.row_ptr[r + 1],
                      c) == op.col_idx.begin() + op.row_ptr[r + 1])
          ++larger_dropped;
      CHECK(larger_dropped == 0);
    }
  }
  CHECK_THROWS(prune_to_csr(w, rows, cols, 1.0));
}

TEST_CASE("csr_row_swizzle_longest_first_stable", "[validation][csr]") {
  // Row lengths 2, 5, 0, 5, 1.
  const std::vector<int> row_ptr{0, 2, 7, 7, 12, 13};
  CHECK(row_swizzle(row_ptr) == std::vector<int>{1, 3, 0, 4, 2});
}

TEST_CASE("csr_reference_is_the_sequential_fmaf_chain", "[validation][csr]") {
  // W row 0 = [1, 2^-24, 2^-24] (fp16 0x3C00, 0x0001, 0x0001), X^T rows all 1.0: the
  // fp32 chain rounds each 2^-24 away (1 + 2^-24 ties to 1), the exact sum is 1 + 2^-23.
  CsrOperand op;
  op.rows = 1;
  op.cols = 3;
  op.values = {0x3C00, 0x0001, 0x0001};
  op.col_idx = {0, 1, 2};
  op.row_ptr = {0, 3};
  op.row_order = {0};
  const Fp16Matrix xt{0x3C00, 0x3C00, 0x3C00};  // K = 3, M = 1
  const std::uint32_t bits = csr_reference_element(op, xt, 1, 0, 0);
  CHECK(bits == 0x3F800000u);
  // In the other order (small ones first) the chain keeps them: order is what is modelled.
  op.values = {0x0001, 0x0001, 0x3C00};
  CHECK(csr_reference_element(op, xt, 1, 0, 0) == 0x3F800001u);
}

TEST_CASE("csr_tile_cols_and_transpose", "[validation][csr]") {
  CHECK(csr_tile_cols_for(8192) == 128);
  CHECK(csr_tile_cols_for(100) == 64);
  CHECK(csr_tile_cols_for(5) == 32);
  const Fp16Matrix x{1, 2, 3, 4, 5, 6};  // 2 x 3
  CHECK(transpose(x, 2, 3) == Fp16Matrix{1, 4, 2, 5, 3, 6});
}
