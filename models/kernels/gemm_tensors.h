// Where a GEMM-like kernel's tensors live and how its CTAs tile the output: the part
// of a launch plan every tensor-core and CUDA-core kernel of one op shares.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/common/gemm_op.h"
#include "models/kernels/conv_activation.h"
#include "models/mapping/kernel_mapping.h"
#include "models/memory/memory_system.h"
#include "models/sm/cta_program.h"

namespace stcsim {

struct TensorAddresses {
  std::uint64_t a = 0, meta = 0, b = 0, c = 0, workspace = 0, index = 0;
};

struct GemmTensors {
  GemmOp op;    // the problem as the kernel runs it (kernel_problem of the user's op)
  MmaKind mma;  // the instruction its warps issue (the dtype alone for CUDA-core kernels)
  bool transposed_output = false;  // sparse weights: the kernel's D is y^T, stored as y
  KernelMapping map;
  // A convolution's activation operand (kernel A, or kernel B when the weight is A) read
  // from its NHWC input (conv_activation.h); absent: both operands are row-major matrices.
  ConvActivation activation;
  // A values, A metadata (sparse only; stored tile by tile in the order the kernel
  // reads it, as CUTLASS reorders it), B, D, split-K partials, index arrays.
  TensorAddresses base;
  // Bytes from one batch's tensor to the next (grouped GEMMs run in one kernel).
  std::uint64_t a_stride = 0, meta_stride = 0, b_stride = 0, c_stride = 0, workspace_stride = 0;

  GemmTensors() = default;
  // `user_op` as kernel_problem runs it, under `map`, at `addr`.
  GemmTensors(const GemmOp& user_op, const KernelMapping& m, const TensorAddresses& addr)
      : op(kernel_problem(user_op)),
        mma(user_op.kind()),
        transposed_output(weight_is_kernel_a(user_op)),
        map(m),
        base(addr) {}
};

// Where a CTA's output tile starts and how much of it lies inside the problem.
struct TileExtent {
  std::int64_t m0, n0, rows, cols;
};
inline TileExtent tile_extent(const GemmTensors& k, const CtaTask& t) {
  const std::int64_t m0 = std::int64_t(t.tile_m) * k.map.cta_m,
                     n0 = std::int64_t(t.tile_n) * k.map.cta_n;
  return {m0, n0, std::min<std::int64_t>(k.map.cta_m, k.op.m - m0),
          std::min<std::int64_t>(k.map.cta_n, k.op.n - n0)};
}

// Rows [first, first + count) of a tile's B operand (count < 0: to the tile's end).
struct RowShare {
  std::int64_t first = 0, count = -1;
};

// The bytes of one whole row of a stage's A tile (kept values and metadata) and of its B
// tile.
struct StageRowBytes {
  double a = 0, b = 0;
};

// The load of one stage into `r`: the k-tile starting at `k0` of the A rows (kept values,
// compressed when sparse, and the metadata block of this tile and k-tile) and the B
// rows of task `t`'s output tile, or only `a_share` / `b_share` of them (cluster peers
// multicast the rest).
StageRowBytes tile_stage_load(const GemmTensors& k, const CtaTask& t, std::int64_t k0,
                              MemRequest& r, RowShare b_share = {}, RowShare a_share = {});

// The store of a CTA's output tile into `store`: fp32 partials into the split-K
// workspace when `partial`, else D (y^T tiles transposed through shared memory so that
// y's rows are written contiguously).
void tile_store(const GemmTensors& k, const CtaTask& t, bool partial, MemRequest& store);

}  // namespace stcsim
