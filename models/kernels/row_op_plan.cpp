#include "models/kernels/row_op_plan.h"

#include <algorithm>

namespace stcsim {

std::int64_t RowOpShape::elements(std::int64_t first, std::int64_t last) const {
  if (!causal) return (last - first) * n;
  return std::int64_t(causal_elements(last, n) - causal_elements(first, n));
}

RowOpShape row_op_shape(const GemmOp& op) {
  RowOpShape s;
  s.info = row_op_info(op.row_op);
  s.rows = op.m;
  s.n = op.n;
  s.batch = op.batch;
  s.causal = op.causal == Causal::Output;
  s.rows_per_chunk =
      std::max<std::int64_t>(1, kRowOpChunkElements / std::max<std::int64_t>(1, op.n));
  s.chunks_per_batch = (s.rows + s.rows_per_chunk - 1) / s.rows_per_chunk;
  return s;
}

double row_op_warp_cycles(const RowOpInfo& info, std::int64_t elements) {
  const double warps = kRowOpThreadsPerCta / 32;
  return double(elements) / warps / 32.0 * info.instructions;
}

}  // namespace stcsim
