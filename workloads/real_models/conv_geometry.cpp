#include "workloads/real_models/conv_geometry.h"

#include <algorithm>

#include "sim/core/input_error.h"

namespace stcsim::workloads {
namespace {

std::int64_t conv_out(std::int64_t in, std::int64_t pad, std::int64_t k, std::int64_t s,
                      std::int64_t d) {
  const std::int64_t span = in + pad - d * (k - 1) - 1;
  return span < 0 ? 0 : span / s + 1;
}

void require_rank(const Tensor& t, std::size_t rank, const char* layout) {
  if (t.shape.size() != rank || static_cast<std::int64_t>(t.data.size()) != t.numel())
    throw InputError("weight '" + t.name + "': expected a " + layout + " tensor");
}

}  // namespace

std::int64_t ConvGeometry::out_h() const {
  return conv_out(in_h, pad_top + pad_bottom, kernel_h, stride_h, dilation_h);
}
std::int64_t ConvGeometry::out_w() const {
  return conv_out(in_w, pad_left + pad_right, kernel_w, stride_w, dilation_w);
}

ConvGeometry tf_conv_geometry(std::int64_t kh, std::int64_t kw, std::int64_t sh, std::int64_t sw,
                              std::int64_t dh, std::int64_t dw, const std::string& padding,
                              std::int64_t in_h, std::int64_t in_w) {
  ConvGeometry g{kh, kw, sh, sw, dh, dw, 0, 0, 0, 0, in_h, in_w};
  if (padding == "same") {
    const auto total = [](std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d) {
      const std::int64_t out = (in + s - 1) / s;
      return std::max<std::int64_t>((out - 1) * s + d * (k - 1) + 1 - in, 0);
    };
    const std::int64_t th = total(in_h, kh, sh, dh), tw = total(in_w, kw, sw, dw);
    g.pad_top = th / 2;
    g.pad_bottom = th - th / 2;
    g.pad_left = tw / 2;
    g.pad_right = tw - tw / 2;
  } else if (padding != "valid") {
    throw InputError("convolution padding '" + padding + "' is not 'same' or 'valid'");
  }
  return g;
}

Layer conv_layer(const std::string& name, const std::string& weight, std::int64_t in_channels,
                 std::int64_t out_channels, std::int64_t groups, const ConvGeometry& g) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::Conv2d;
  l.weight = weight;
  l.in_features = in_channels;
  l.out_features = out_channels;
  l.groups = groups;
  l.kernel_h = g.kernel_h;
  l.kernel_w = g.kernel_w;
  const std::int64_t oh = g.out_h(), ow = g.out_w();
  // Exact when one stride, one dilation and one symmetric padding p reproduce both
  // output sizes (uneven TF "same" padding often does: p = ceil(total / 2)).
  if (g.stride_h == g.stride_w && g.dilation_h == g.dilation_w) {
    const std::int64_t p = std::max(g.pad_top + g.pad_bottom + 1, g.pad_left + g.pad_right + 1) / 2;
    ConvGeometry sym = g;
    sym.pad_top = sym.pad_bottom = sym.pad_left = sym.pad_right = p;
    if (sym.out_h() == oh && sym.out_w() == ow) {
      l.stride = g.stride_h;
      l.dilation = g.dilation_h;
      l.padding = p;
      l.in_h = g.in_h;
      l.in_w = g.in_w;
      return l;
    }
  }
  // Equivalent form: same output size and kernel, hence the same GEMM.
  l.stride = 1;
  l.padding = 0;
  l.dilation = g.dilation_h == g.dilation_w ? g.dilation_h : 1;
  l.in_h = oh + l.dilation * (g.kernel_h - 1);
  l.in_w = ow + l.dilation * (g.kernel_w - 1);
  return l;
}

Layer linear_layer(const std::string& name, const std::string& weight, std::int64_t in_features,
                   std::int64_t out_features, std::int64_t tokens) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::Linear;
  l.weight = weight;
  l.in_features = in_features;
  l.out_features = out_features;
  l.in_h = 1;
  l.in_w = tokens;
  return l;
}

Tensor hwio_to_oihw(const Tensor& t) {
  require_rank(t, 4, "[kh, kw, in, out] convolution kernel");
  const std::int64_t kh = t.shape[0], kw = t.shape[1], ci = t.shape[2], co = t.shape[3];
  Tensor o{t.name, {co, ci, kh, kw}, std::vector<float>(t.data.size()), t.stored_dtype};
  for (std::int64_t y = 0; y < kh; ++y)
    for (std::int64_t x = 0; x < kw; ++x)
      for (std::int64_t i = 0; i < ci; ++i)
        for (std::int64_t c = 0; c < co; ++c)
          o.data[((c * ci + i) * kh + y) * kw + x] = t.data[((y * kw + x) * ci + i) * co + c];
  return o;
}

Tensor depthwise_to_oihw(const Tensor& t) {
  require_rank(t, 4, "[kh, kw, channels, multiplier] depthwise kernel");
  const std::int64_t kh = t.shape[0], kw = t.shape[1], ch = t.shape[2], m = t.shape[3];
  Tensor o{t.name, {ch * m, 1, kh, kw}, std::vector<float>(t.data.size()), t.stored_dtype};
  for (std::int64_t y = 0; y < kh; ++y)
    for (std::int64_t x = 0; x < kw; ++x)
      for (std::int64_t c = 0; c < ch; ++c)
        for (std::int64_t j = 0; j < m; ++j)
          o.data[((c * m + j) * kh + y) * kw + x] = t.data[((y * kw + x) * ch + c) * m + j];
  return o;
}

Tensor transpose_2d(const Tensor& t) {
  require_rank(t, 2, "2-D [in, out] matrix");
  const std::int64_t r = t.shape[0], c = t.shape[1];
  Tensor o{t.name, {c, r}, std::vector<float>(t.data.size()), t.stored_dtype};
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) o.data[j * r + i] = t.data[i * c + j];
  return o;
}

}  // namespace stcsim::workloads
