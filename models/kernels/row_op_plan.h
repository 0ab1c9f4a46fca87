// The launch plan of the row-op kernel (row_op_kernel.cpp): softmax, norms, activations,
// residual adds and embedding lookups on the CUDA cores, the way PyTorch's CUDA kernels
// run them (vectorized_elementwise_kernel and the per-row softmax / layer-norm kernels):
// one CTA of 128 threads per chunk of whole rows of at least 1024 elements (PyTorch's
// block_work_size for 16-bit elements: 128 threads x 8-element vectors), no grid-stride
// loop, each CTA loading its chunk once, computing in registers and storing it. Pure
// functions, no SystemC.
#pragma once
#include <cstdint>

#include "models/common/gemm_op.h"
#include "models/common/row_op.h"

namespace stcsim {

inline constexpr int kRowOpThreadsPerCta = 128;
inline constexpr std::int64_t kRowOpChunkElements = 1024;

struct RowOpShape {
  RowOpInfo info;
  std::int64_t rows = 0, n = 0;  // per batch: rows of n elements
  std::int64_t batch = 1;
  bool causal = false;              // softmax over causal scores: row i holds min(i + 1, n)
  std::int64_t rows_per_chunk = 1;  // whole rows
  std::int64_t chunks_per_batch = 0;
  std::int64_t ctas() const { return chunks_per_batch * batch; }
  // Elements of row i.
  std::int64_t row_length(std::int64_t i) const { return causal ? std::min(i + 1, n) : n; }
  // Rows [first, last) of chunk c of a batch.
  std::int64_t first_row(std::int64_t c) const { return c * rows_per_chunk; }
  std::int64_t last_row(std::int64_t c) const { return std::min(rows, (c + 1) * rows_per_chunk); }
  // Elements of rows [first, last).
  std::int64_t elements(std::int64_t first, std::int64_t last) const;
};

RowOpShape row_op_shape(const GemmOp& op);

// Cycles one warp's share of `elements` takes on its sub-core: instructions per 32
// elements, one warp instruction per cycle, the chunk's elements spread over the CTA's
// warps.
double row_op_warp_cycles(const RowOpInfo& info, std::int64_t elements);

}  // namespace stcsim
