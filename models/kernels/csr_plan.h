// The row-split CSR SpMM kernel on CUDA cores (the unstructured-sparsity baseline),
// modelled on Sputnik (Gale et al., SC'20), the reference GPU SpMM for deep learning:
//   Y^T [N, M] = W [N, K] (CSR) x X^T [K, M]
// A CTA computes `rows` rows of W (one warp per row) against `cols` columns of X^T (the
// activations, read K-major: each nonzero W[n, k] gathers row k of X^T, `cols` contiguous
// values). Each stage stages up to `nnz_per_stage` nonzeros per row (values and column
// indices) and gathers their activation rows through the L1; the warp then does
// `cols` FMAs per nonzero (cols / 32 per thread, fp32 accumulation).
// Row swizzle (Sputnik's load balancing): rows are sorted by nonzero count, longest
// first, and dealt to CTAs in that order, so a CTA's warps have similar work and the
// heaviest CTAs launch first.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "models/common/gemm_op.h"

namespace stcsim {

struct CsrStage {
  std::vector<int> row_nnz;  // nonzeros of each of the CTA's rows in this stage (per warp)
  // (byte offset, bytes) into the value array and into the column-index array.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> value_runs, index_runs;
  std::vector<std::int64_t> cols;  // distinct K columns (rows of X^T) this stage gathers
};

struct CsrPanel {
  int batch = 0;
  std::vector<std::int64_t> rows;  // rows of W (batch * m + row) in warp order
  std::vector<CsrStage> stages;
  std::int64_t nnz = 0;
};

// Panels of `rows_per_cta` rows of a 1x1 block map (CSR) of W [batch * m, k] (the
// kernel problem's m), in launch order (row swizzle within each batch). `value_bytes`
// per nonzero.
std::vector<CsrPanel> build_csr_panels(const BlockMap& map, int batch, std::int64_t m,
                                       int rows_per_cta, int nnz_per_stage, int value_bytes);

// Issue cycles one warp spends per nonzero for `cols` output columns: an LDG of its
// slice of the X^T row, a conversion to fp32 (16-bit and 8-bit inputs), cols / 32 FMAs
// per thread, and two vectorized LDS (values and indices, four nonzeros each); or the FMA
// pipe's time (cols FMAs at `lanes` per cycle) when that is longer.
double csr_cycles_per_nnz(int cols, int lanes, Dtype d);

// The CTA's activation columns for N of them: 32, 64 or 128 (1, 2 or 4 per thread),
// whichever costs the fewest warp cycles per nonzero over all of N (ceil(N / cols) tiles
// x csr_cycles_per_nnz): wide tiles amortize the load and conversion over more FMAs,
// narrow ones waste less on a skinny N. Ties go to the wider tile.
int csr_tile_cols(std::int64_t n, int lanes, Dtype d);

}  // namespace stcsim
