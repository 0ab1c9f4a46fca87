// From a framework's convolution description to a workloads::Layer, and weight layouts
// to the Layer's conventions (Conv2d OIHW, Linear [out, in]).
//
// Layer has one stride and one symmetric padding. Where a real layer needs more (PP-OCR's
// (2,1) strides and 1x3 kernels padded only in width; TF "same" padding that is uneven),
// the layer is written in an equivalent form with the same GEMM (M, N, K): stride 1,
// padding 0, and an input of size out + dilation * (kernel - 1). See docs/loaders.md.
#pragma once
#include <cstdint>
#include <string>

#include "workloads/layer.h"
#include "workloads/tensor.h"

namespace stcsim::workloads {

struct ConvGeometry {
  std::int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  std::int64_t dilation_h = 1, dilation_w = 1;
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t in_h = 0, in_w = 0;

  std::int64_t out_h() const;
  std::int64_t out_w() const;
};

// TF/Keras padding "same" (output ceil(in / stride), extra pad at the bottom/right) or
// "valid" (no padding).
ConvGeometry tf_conv_geometry(std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t stride_h,
                              std::int64_t stride_w, std::int64_t dilation_h,
                              std::int64_t dilation_w, const std::string& padding,
                              std::int64_t in_h, std::int64_t in_w);

// A Conv2d layer with this geometry (exact when Layer can say it, else the equivalent).
Layer conv_layer(const std::string& name, const std::string& weight, std::int64_t in_channels,
                 std::int64_t out_channels, std::int64_t groups, const ConvGeometry& g);
// A Linear layer; in_h x in_w = 1 x tokens: the tokens per sample at the default input.
Layer linear_layer(const std::string& name, const std::string& weight, std::int64_t in_features,
                   std::int64_t out_features, std::int64_t tokens);

// Weight layouts, returning a tensor of the same name and stored_dtype.
Tensor hwio_to_oihw(const Tensor& t);       // TF Conv2D kernel [kh, kw, I, O]
Tensor depthwise_to_oihw(const Tensor& t);  // TF depthwise [kh, kw, C, M] -> [C*M, 1, kh, kw]
Tensor transpose_2d(const Tensor& t);       // [in, out] -> [out, in]

}  // namespace stcsim::workloads
