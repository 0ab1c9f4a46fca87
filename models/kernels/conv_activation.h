// The activation operand of a convolution run as an implicit GEMM on the tensor cores.
//
// Its rows are output pixels (images x P x Q) and its K index is (r, s, c) with the
// channel fastest, the order NHWC implicit-GEMM kernels use (CUTLASS's Conv2dFprop
// activation iterators, cuDNN's NHWC kernels; the filter is then KRSC). An element is read
// where the pixel's window lands in the NHWC input tensor, so neighbouring windows share
// lines and DRAM sees the input about once, not R x S times as an unrolled (im2col) matrix
// would. Taps that fall in the padding are zero-filled in shared memory (cp.async with a
// zero source size) and not read.
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/conv_shape.h"
#include "models/common/gemm_op.h"
#include "models/memory/memory_system.h"

namespace stcsim {

struct ConvActivation {
  ConvShape conv;                   // absent: the operand is an ordinary row-major matrix
  std::int64_t channels = 0;        // Cin of the whole tensor (every group)
  std::int64_t group_channels = 0;  // Cin per group: the GEMM's K / (R x S)
  int element_bytes = 2;

  bool present() const { return conv.present(); }
  // The NHWC input tensor, every group.
  double tensor_bytes() const {
    return double(conv.images) * conv.in_h * conv.in_w * channels * element_bytes;
  }
};

// The activation operand of `op` (K / taps channels per group, `op.batch` groups) when it
// is a convolution, else an absent one.
ConvActivation conv_activation(const GemmOp& op);

// Appends to `out` the runs that load output pixels [m0, m0 + rows) over K [k0, k0 + kb)
// from the NHWC tensor whose group's channel 0 is at `base`: one run per (output row of
// the tile, tap), each pixel's channel slice a row of it, runs that continue one another
// merged (a 1x1 stride-1 convolution is then exactly its matrix's rows).
void conv_activation_runs(const ConvActivation& a, std::uint64_t base, std::int64_t m0,
                          std::int64_t rows, std::int64_t k0, std::int64_t kb,
                          std::vector<RowRun>& out);

// The CUDA-core CSR kernel's view (a direct sparse convolution, Park et al. ICLR'17):
// the input in CHW planes per image (NCHW), so that K index `k` (tap-major, channel
// fastest, as above) over output pixels [m0, m0 + count) is, per output row, a stretch of
// one input row of one channel plane: the byte spans [first, last) it touches (elements
// `stride` apart inside a span when stride > 1; taps in the padding are not read), into
// `out`. Returns the elements read.
std::int64_t conv_chw_spans(const ConvActivation& a, std::uint64_t base, std::int64_t k,
                            std::int64_t m0, std::int64_t count,
                            std::vector<std::pair<std::uint64_t, std::uint64_t>>& out);
// The input's bytes from one group's first channel plane to the next group's (NCHW).
inline std::uint64_t conv_chw_group_stride(const ConvActivation& a) {
  return std::uint64_t(a.group_channels * a.conv.in_h * a.conv.in_w * a.element_bytes);
}

}  // namespace stcsim
