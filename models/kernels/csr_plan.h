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

// One stage of a panel: its value runs and index runs ((byte offset, bytes) into the value
// array and into the column-index array, one of each a row with nonzeros in the stage),
// the distinct K columns (rows of X^T) it gathers, and each of the CTA's rows' nonzeros in
// it (per warp). The arrays lie together in the panel's words (CsrPanel::words), runs
// first, in the order a stage's issue reads them: the simulation reads a stage once a CTA,
// long after it left the host's caches, and one place in memory misses less than four.
class CsrStage {
 public:
  using Run = std::pair<std::uint64_t, std::uint32_t>;
  CsrStage() = default;
  CsrStage(const std::uint64_t* at, std::uint32_t runs, std::uint32_t cols, std::uint32_t rows)
      : at_(at), runs_(runs), cols_(cols), rows_(rows) {}
  std::size_t runs() const { return runs_; }
  Run value_run(std::size_t i) const { return {at_[2 * i], std::uint32_t(at_[2 * i + 1])}; }
  Run index_run(std::size_t i) const {
    return {at_[2 * (runs_ + i)], std::uint32_t(at_[2 * (runs_ + i) + 1])};
  }
  // The columns, ascending (words read as their signed type, which may alias them).
  const std::int64_t* cols() const {
    return reinterpret_cast<const std::int64_t*>(at_ + 4 * std::size_t(runs_));
  }
  std::size_t col_count() const { return cols_; }
  std::size_t rows() const { return rows_; }
  int row_nnz(std::size_t w) const { return int(at_[4 * std::size_t(runs_) + cols_ + w]); }

 private:
  const std::uint64_t* at_ = nullptr;  // in the panel's words
  std::uint32_t runs_ = 0, cols_ = 0, rows_ = 0;
};

struct CsrPanel {
  CsrPanel() = default;
  // Stages point into `words`: a move keeps them (the storage moves along), a copy would
  // not.
  CsrPanel(CsrPanel&&) noexcept = default;
  CsrPanel& operator=(CsrPanel&&) noexcept = default;
  CsrPanel(const CsrPanel&) = delete;
  CsrPanel& operator=(const CsrPanel&) = delete;
  int batch = 0;
  std::vector<std::int64_t> rows;  // rows of W (batch * m + row) in warp order
  std::vector<CsrStage> stages;
  std::int64_t nnz = 0;
  std::vector<std::uint64_t> words;  // the stages' arrays, stage after stage
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
