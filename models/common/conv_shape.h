// The convolution a GEMM was lowered from, when it was one (workloads/lowering): the
// NHWC input, the square-free kernel window and the output size. A direct convolution
// kernel (models/kernels/depthwise_conv.cpp) reads its input tensor through it; the GEMM
// view (M = images x out_h x out_w, N = Cout / groups, K = Cin / groups x R x S,
// batch = groups) stays the op's shape.
#pragma once
#include <cstdint>

namespace stcsim {

struct ConvShape {
  std::int64_t images = 0;  // 0: the op is not a convolution
  std::int64_t in_h = 0, in_w = 0;
  std::int64_t kernel_h = 1, kernel_w = 1, stride = 1, padding = 0, dilation = 1;
  std::int64_t out_h = 0, out_w = 0;

  bool present() const { return images > 0; }
  std::int64_t taps() const { return kernel_h * kernel_w; }
  bool operator==(const ConvShape& o) const {
    return images == o.images && in_h == o.in_h && in_w == o.in_w && kernel_h == o.kernel_h &&
           kernel_w == o.kernel_w && stride == o.stride && padding == o.padding &&
           dilation == o.dilation && out_h == o.out_h && out_w == o.out_w;
  }
  bool operator!=(const ConvShape& o) const { return !(*this == o); }
};

}  // namespace stcsim
