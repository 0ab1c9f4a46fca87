// The sparse operands in the order the validation kernels read them, built only from the
// formats library (models/sparse): no second copy of any format logic.
//
// 2:4 (validation/cuda/gemm_sp24.cu): `values` are sparse::compress's kept values
// (rows x cols/2, row-major), which ldmatrix loads as dense A fragments of each
// compressed 16x16 tile. `meta` holds, for each CTA row block bm and k-tile kt (the
// kernel loads one contiguous block per k-tile, as the simulator assumes), for each
// 16-row tile and 32-wide k-sub, 16 words: word 2g+j is the metadata register that lane
// 4g+j supplies under sparsity selector 0 (sparse::to_mma_sp_registers, form
// F16_M16N8K32). Layout: [rows/cta_m][cols/cta_k][cta_m/16][cta_k/32][16].
//
// BSR (gemm_bsr.cu): sparse::to_bsr with cta_m x cta_k blocks.
#pragma once
#include <cstdint>
#include <vector>

#include "validation/harness/operands.h"

namespace stcsim::validation {

struct Sp24Operand {
  int rows = 0, cols = 0, cta_m = 0, cta_k = 0;
  Fp16Matrix values;                // rows x cols/2
  std::vector<std::uint32_t> meta;  // rows * cols / 32 words (4 bits per kept pair)
};

// w must already be 2:4 along K (InputError naming the row and group otherwise); rows a
// multiple of cta_m (itself a multiple of 16), cols a multiple of cta_k (of 32).
Sp24Operand pack_sp24(const Fp16Matrix& w, int rows, int cols, int cta_m, int cta_k);
// The dense matrix back, decoding every metadata word through the formats library
// (sparse::from_mma_sp_registers under ordered metadata). For tests.
Fp16Matrix unpack_sp24(const Sp24Operand& op);

struct BsrOperand {
  std::vector<int> row_ptr, col_idx;
  Fp16Matrix values;  // kept blocks, each cta_m x cta_k row-major
  int kept_blocks = 0, total_blocks = 0;
};
BsrOperand pack_bsr(const Fp16Matrix& w, int rows, int cols, int cta_m, int cta_k);

}  // namespace stcsim::validation
