// One GEMM as the simulator runs it: D[M,N] = A[M,K] * B[N,K]^T (+ C).
// For a linear layer y = x W^T: A = x (M = tokens), B = W (N = out features, K = in).
// Both operands are K-contiguous ("TN"), the layout cuBLAS uses for y = x W^T.
//
// `sparsity` N:M means the weight operand B = W is pruned N:M along K. PTX's mma.sp
// takes sparsity on its A operand, so the kernel computes D^T = W x^T: the kernel's
// A is W (compressed values + metadata), its B is x, its M is N and its N is M; the
// epilogue stages the tile through shared memory and stores it transposed, so y keeps
// its [M,N] row-major layout (see kernel_problem).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/common/conv_shape.h"
#include "models/common/mma_kind.h"
#include "models/common/row_op.h"

namespace stcsim {

// The block map of a block-sparse weight W [batch * n, k] (BSR structure, values
// elsewhere): blocks of r rows (output channels) x c columns (input features); block
// row i keeps the sorted block columns col_idx[row_ptr[i] .. row_ptr[i+1]). The
// matrix is padded to whole blocks. The block-sparse kernel skips absent blocks
// (docs/block_sparse.md).
struct BlockMap {
  int r = 1, c = 1;
  std::int64_t block_rows = 0, block_cols = 0;
  std::vector<int> row_ptr, col_idx;
  std::int64_t nnz() const { return std::int64_t(col_idx.size()); }
  double density() const {
    return block_rows * block_cols > 0 ? double(nnz()) / (double(block_rows) * double(block_cols))
                                       : 0;
  }
  // The sorted distinct block columns kept by any block row that holds a row of
  // [row0, row1): what a CTA over those rows must multiply (into `out`).
  void union_columns(std::int64_t row0, std::int64_t row1, std::vector<int>& out) const {
    out.clear();
    for (std::int64_t i = row0 / r; i <= (row1 - 1) / r && i < block_rows; ++i)
      out.insert(out.end(), col_idx.begin() + row_ptr[std::size_t(i)],
                 col_idx.begin() + row_ptr[std::size_t(i) + 1]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
};

// What a causal attention mask leaves of a GEMM (the mask aligned at the top left: row i
// sees columns 0..i). Output: D[i][j] is wanted for j <= i only (the scores Q K^T, M =
// queries, N = keys); a causal kernel launches no CTA whose tile lies wholly above the
// diagonal. A: A[i][k] is zero for k > i (the probabilities P of P V, M = queries, K =
// keys); each CTA's k-loop stops after its last row's column. FlashAttention's causal
// kernels skip the same tiles; an unfused run that masks the scores in place does not.
enum class Causal { None, Output, A };
inline const char* causal_name(Causal c) {
  return c == Causal::Output ? "output" : c == Causal::A ? "a" : "none";
}

// Elements (i, j), i < rows, j < cols, with j <= i: what a causal mask keeps.
inline double causal_elements(std::int64_t rows, std::int64_t cols) {
  const double r = double(rows), c = double(cols);
  if (cols >= rows) return r * (r + 1) / 2;
  return c * (c + 1) / 2 + (r - c) * c;
}

struct GemmOp {
  std::string name;
  std::int64_t m = 0, n = 0, k = 0;
  Dtype dtype = Dtype::FP16;
  NmSparsity sparsity;  // of B (the weights); dense by default
  int batch = 1;        // independent GEMMs of this shape in one kernel (conv groups)
  // The convolution this GEMM lowers, when it is one (a direct convolution kernel reads
  // the NHWC input through it); absent for linear layers and shape-only GEMMs.
  ConvShape conv;
  // The pruning the weights carry when it is not one the tensor core exploits (e.g.
  // "block:32x32" on a datapath that does not skip blocks); reported, not simulated.
  std::string weight_pattern;
  // The run variant the op belongs to, as the user asked for it: a model's --prune spec
  // ("block:32x32@0.5"), a trace's prune spec, or the run's --sparsity / --block /
  // --unstructured; stats.json totals ops per variant. A label: nothing simulates it.
  std::string variant;
  // Why pruning left the layer dense, applied part of the pattern or floored it ("" when
  // it applied as asked), and whether its weights are seeded synthetic ones standing in
  // for a shapes-only model's (their block map is real, their values are not).
  std::string pruning_note;
  bool synthetic_weights = false;
  // The pattern the op's weights carry: weight_pattern (with "+N:M" inside the blocks),
  // else the N:M sparsity, else "dense".
  std::string pattern() const {
    if (weight_pattern.empty()) return sparsity.str();
    return sparsity.dense() ? weight_pattern : weight_pattern + "+" + sparsity.str();
  }
  // The weight values when a trace carries them: W as [batch * n, k] row-major, pruned
  // (zeros where pruned). Only functional mode reads them; timing needs shapes only.
  std::shared_ptr<const std::vector<float>> weights;
  // Block-sparse weights run on the block-skipping kernel when set (weight_pattern
  // then names the blocks); null: dense (or N:M) over all of K.
  std::shared_ptr<const BlockMap> block_map;
  bool block_sparse() const { return block_map != nullptr; }
  // The unstructured mask the weight values follow when block_map is its block cover
  // (--unstructured-kernel tc:V): functional mode zeroes seeded weights with it.
  std::shared_ptr<const BlockMap> value_mask;
  double weight_density() const { return block_map ? block_map->density() : 1.0; }
  // An attention GEMM under a causal mask (dense operands only; Causal::None otherwise).
  Causal causal = Causal::None;
  // B is an activation, not a weight (attention's K and V^T; every causal op): a run's
  // --sparsity does not prune it.
  bool activation_b = false;
  // Not a GEMM: a softmax, norm, activation, residual add or embedding lookup over
  // `batch` x m rows of n elements (k = 1), run by the row_op kernel (row_op.h). A causal
  // softmax (causal == Output) reads and writes each row's kept part only.
  RowOpKind row_op = RowOpKind::None;
  bool is_row_op() const { return row_op != RowOpKind::None; }
  // Elements a row op writes.
  double row_elements() const {
    return batch * (causal == Causal::Output ? causal_elements(m, n) : double(m) * double(n));
  }
  // The share of the products the mask keeps (1 without one).
  double causal_fraction() const {
    if (causal == Causal::Output) return causal_elements(m, n) / (double(m) * double(n));
    if (causal == Causal::A) return causal_elements(m, k) / (double(m) * double(k));
    return 1.0;
  }

  MmaKind kind() const { return MmaKind{dtype, sparsity}; }
  // Dense-equivalent operations (2 per FMA of the dense GEMM), as sparse peaks are quoted.
  // A causal op counts the products its mask keeps, as FlashAttention's figures do.
  // A row op does no tensor work: 0.
  double flops() const {
    if (is_row_op()) return 0;
    return 2.0 * double(m) * double(n) * double(k) * batch * causal_fraction();
  }
  // Real multiplies: the dense count scaled by N/M for a sparse operand.
  double products() const {
    if (is_row_op()) return 0;
    const double p = double(m) * double(n) * double(k) * batch * causal_fraction();
    return (sparsity.dense() ? p : p * sparsity.n / sparsity.m) * weight_density();
  }
  // Elements of one group's activation operand in memory: a convolution's NHWC input
  // (its channels of the group), else the M x K matrix.
  double activation_elements() const {
    if (conv.present() && conv.taps() > 0 && k % conv.taps() == 0)
      return double(conv.images) * double(conv.in_h) * double(conv.in_w) * double(k / conv.taps());
    return double(m) * double(k);
  }
  // Compulsory bytes: read both operands once (the sparse one compressed, with its
  // metadata; a convolution's input tensor, not its unrolled windows; a causal A's
  // lower triangle), write D once (a causal output's lower triangle).
  double min_bytes() const {
    if (is_row_op()) {
      const RowOpInfo& r = row_op_info(row_op);
      return double(input_bytes(dtype)) * row_elements() * r.inputs +
             double(output_bytes(dtype)) * row_elements() * r.outputs +
             (r.per_row_params ? 2.0 * double(input_bytes(dtype)) * double(n) : 0.0);
    }
    const MmaKind kd = kind();
    const double a_share = causal == Causal::A ? causal_fraction() : 1.0;
    const double d_share = causal == Causal::Output ? causal_fraction() : 1.0;
    return batch *
           (double(input_bytes(dtype)) * activation_elements() * a_share +
            (kd.a_bytes_per_k() + kd.meta_bytes_per_k()) * double(n * k) * weight_density() +
            double(output_bytes(dtype)) * double(m * n) * d_share);
  }
};

// The problem as the kernel runs it: unchanged when dense; for a sparse weight
// operand (N:M or block-sparse), M and N swap so that the sparse operand is the
// kernel's A.
inline bool weight_is_kernel_a(const GemmOp& op) {
  return !op.sparsity.dense() || op.block_sparse();
}
inline GemmOp kernel_problem(const GemmOp& op) {
  GemmOp k = op;
  if (weight_is_kernel_a(op)) std::swap(k.m, k.n);
  return k;
}
// min_bytes of the op `kp` is the kernel problem of: its A is the weight (compressed,
// with metadata) when the op is sparse, else the activation.
inline double kernel_min_bytes(const GemmOp& kp) {
  if (!weight_is_kernel_a(kp)) return kp.min_bytes();
  GemmOp user = kp;
  std::swap(user.m, user.n);
  return user.min_bytes();
}

}  // namespace stcsim
