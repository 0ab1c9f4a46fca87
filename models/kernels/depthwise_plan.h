// The launch plan of the depthwise (and grouped) convolution kernel on the CUDA cores,
// modelled on TensorFlow's NHWC forward kernel (tensorflow/core/kernels/
// depthwise_conv_op_gpu.h: LaunchDepthwiseConv2dGPU -> DepthwiseConv2dGPUKernelNHWC):
//   one thread per output, in NHWC order (channel fastest), in a grid-stride loop
//   (GPU_1D_KERNEL_LOOP) over all images x P x Q x Cout outputs;
//   blocks of 1024 threads (__launch_bounds__(1024, 2); GetGpuLaunchConfig's occupancy
//   answer), as many blocks as the SMs hold at full occupancy, or one per SM when the
//   filter is a compile-time 3x3 with multiplier 1 ("the compile-time constant version
//   runs faster with a single block"), never more than the outputs need;
//   per output: for each of the R x S taps inside the input, an ldg of the input
//   (channel-contiguous across a warp, so coalesced) and of the filter, both widened to
//   fp32 for 16-bit types (PseudoHalfType), an FMA; one store.
// So a CTA's pass (one sweep of the grid-stride loop) covers 1024 consecutive NHWC outputs:
// a few output columns of one row with all their channels, or a channel slice of one
// column when Cout > 1024. No shared memory: the overlap of neighbouring windows is
// served by the L1 (within a CTA) and the L2 (between CTAs). Pure functions, no SystemC.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/gemm_op.h"

namespace stcsim {

// TensorFlow's block size for the kernel (its __launch_bounds__(1024, 2), which the
// occupancy calculator GetGpuLaunchConfig asks returns for a kernel this light).
inline constexpr int kDepthwiseThreadsPerCta = 1024;
// Blocks per SM the launch bounds allow, so the occupancy-sized grid's per-SM count.
inline constexpr int kDepthwiseCtasPerSm = 2;

struct DepthwiseShape {
  ConvShape conv;
  std::int64_t in_per_group = 1;  // Cin / groups: 1 for depthwise
  std::int64_t multiplier = 1;    // Cout / groups (op.n)
  std::int64_t in_channels = 1, out_channels = 1;
  std::int64_t outputs = 0;          // images x P x Q x Cout
  std::vector<int> column_taps;      // per output column q: window taps inside the input's W
  bool compile_time_filter = false;  // 3x3, multiplier 1: TF's known-size instance
  std::int64_t ctas = 0;             // the grid (depthwise_launch)

  std::int64_t threads() const { return kDepthwiseThreadsPerCta; }
  std::int64_t total_threads() const { return ctas * kDepthwiseThreadsPerCta; }
  // Grid-stride passes CTA `b` makes.
  int sweeps(std::int64_t b) const;
  // The NHWC outputs [first, last) of CTA `b` in pass `s`.
  std::int64_t first_output(std::int64_t b, int s) const {
    return std::int64_t(s) * total_threads() + b * kDepthwiseThreadsPerCta;
  }
  // The input row filter row `r` of output row `p` reads, or -1 in the padding.
  std::int64_t input_row(std::int64_t p, std::int64_t r) const;
};

// The shape of `op` (which must carry a ConvShape whose K is Cin / groups x R x S) and
// its grid on a GPU of `num_sms` SMs.
DepthwiseShape depthwise_shape(const GemmOp& op, int num_sms);

// What one pass of a CTA reads and computes for filter row `r`: the input's NHWC byte
// runs (offset from the tensor's start, bytes) and the in-bounds multiply-adds of its
// outputs (each a tap of one output; Cin / groups per tap for a grouped conv).
struct DepthwisePassRow {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> input_runs;
  double taps = 0;
};
DepthwisePassRow depthwise_pass_row(const DepthwiseShape& s, std::int64_t first, std::int64_t last,
                                    std::int64_t r, int elem_bytes);

// Why the kernel cannot run `op` ("" when it can).
std::string depthwise_unsupported(const GemmOp& op);
// A depthwise convolution: one input channel per group (Cin == groups), any multiplier.
bool is_depthwise(const GemmOp& op);

// Issue cycles one warp spends per tap (32 outputs' multiply-add of one filter tap): the
// instructions of the unrolled tap loop at one per cycle per sub-core: two loads (input
// and filter), the FMA and one of address arithmetic, plus two conversions to fp32 for
// 16-bit (and 8-bit) inputs (read from the kernel's source, not from SASS); or the FMA
// pipe's 32 / lanes cycles when that is longer.
double depthwise_cycles_per_tap(int fp32_lanes_per_sub_core, Dtype d);

// Compulsory DRAM bytes: the NHWC input, the filter and the output, each once.
double depthwise_compulsory_bytes(const GemmOp& op);

}  // namespace stcsim
