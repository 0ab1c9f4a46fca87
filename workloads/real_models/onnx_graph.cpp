#include "workloads/real_models/onnx_graph.h"

#include <map>
#include <set>

#include "sim/core/input_error.h"
#include "workloads/loaders/onnx.h"
#include "workloads/real_models/conv_geometry.h"

namespace stcsim::workloads {
namespace {

using Hw = std::pair<std::int64_t, std::int64_t>;

// ONNX pads are [top, left, bottom, right] for 2-D.
ConvGeometry onnx_geometry(const std::string& path, const OnnxNode& n, std::int64_t kh,
                           std::int64_t kw, const Hw& in) {
  const auto s = n.ints_attr("strides", {1, 1});
  const auto d = n.ints_attr("dilations", {1, 1});
  const auto p = n.ints_attr("pads", {0, 0, 0, 0});
  const OnnxAttribute* auto_pad = n.attribute("auto_pad");
  if (s.size() != 2 || d.size() != 2 || p.size() != 4 ||
      (auto_pad && !auto_pad->s.empty() && auto_pad->s != "NOTSET"))
    throw InputError(path + ": node '" + n.name + "' (" + n.op_type +
                     "): expected 2-D strides, dilations and explicit pads");
  return ConvGeometry{kh, kw, s[0], s[1], d[0], d[1], p[0], p[2], p[1], p[3], in.first, in.second};
}

// "conv2d_180.w_0" -> "conv2d_180" (PaddlePaddle), "layer1.0.conv1.weight" ->
// "layer1.0.conv1" (PyTorch); other names as they are.
std::string layer_name(const std::string& weight) {
  const auto dot = weight.rfind(".w_");
  if (dot != std::string::npos) return weight.substr(0, dot);
  const std::string suffix = ".weight";
  if (weight.size() > suffix.size() &&
      weight.compare(weight.size() - suffix.size(), suffix.size(), suffix) == 0)
    return weight.substr(0, weight.size() - suffix.size());
  return weight;
}

std::string dims_text(const std::vector<std::int64_t>& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace

Model lower_onnx_graph(const std::string& path, const OnnxGraphOptions& opt) {
  return lower_onnx_graph(load_onnx(path), path, opt);
}

Model lower_onnx_graph(const OnnxModel& onnx, const std::string& path,
                       const OnnxGraphOptions& opt) {
  Model m;
  m.source = path;
  m.real_weights = true;
  if (onnx.inputs.empty())
    throw InputError(path + ": the ONNX graph has no input to size its layers from");
  // The first graph input that is not a weight is the activation.
  const OnnxValueInfo* input = nullptr;
  for (const auto& in : onnx.inputs)
    if (!onnx.tensor(in.name)) {
      input = &in;
      break;
    }
  if (!input) throw InputError(path + ": every graph input is a weight; no activation input");
  std::map<std::string, Hw> hw;
  if (input->dims.size() == 4) {
    std::int64_t h = input->dims[2], w = input->dims[3];
    const bool assumed = (h <= 0 && opt.dynamic_h <= 0) || (w <= 0 && opt.dynamic_w <= 0);
    h = h > 0 ? h : opt.dynamic_h > 0 ? opt.dynamic_h : 224;
    w = w > 0 ? w : opt.dynamic_w > 0 ? opt.dynamic_w : 224;
    if (assumed) {
      m.notes.push_back("input '" + input->name + "' " + dims_text(input->dims) +
                        " has a dynamic height or width: lowered at " + std::to_string(h) + "x" +
                        std::to_string(w) + " (--image HxW rescales)");
    }
    hw[input->name] = {h, w};
  } else {
    hw[input->name] = {1, 1};  // [batch, features] or [batch, tokens, features]: see notes
    if (input->dims.size() == 3)
      m.notes.push_back("input '" + input->name + "' " + dims_text(input->dims) +
                        " is a sequence: its Linear layers run at --seq tokens per sample");
  }
  std::set<std::string> lowered;               // weights a layer took
  std::map<std::string, std::string> used_by;  // constant -> the first node reading it
  for (const auto& n : onnx.nodes) {
    for (const auto& name : n.inputs)
      if (onnx.tensor(name) && !used_by.count(name))
        used_by[name] = n.op_type + " '" + n.name + "'";
    const Hw* in = nullptr;
    for (const auto& name : n.inputs)
      if (auto it = hw.find(name); it != hw.end()) {
        in = &it->second;
        break;
      }
    const Tensor* w = n.inputs.size() > 1 ? onnx.tensor(n.inputs[1]) : nullptr;
    if (n.outputs.empty()) {
      if (n.op_type == "Conv" || n.op_type == "MatMul" || n.op_type == "Gemm")
        throw InputError(path + ": node '" + n.name + "' (" + n.op_type + ") has no output");
      continue;
    }
    if (n.op_type == "Conv") {
      if (!w || w->shape.size() != 4 || !in) {
        m.notes.push_back("Conv '" + n.name + "' not lowered: " +
                          (!w                     ? std::string("its weight is not a constant")
                           : w->shape.size() != 4 ? "its weight is not 4-D"
                                                  : "its input's size is unknown"));
        continue;
      }
      const ConvGeometry g = onnx_geometry(path, n, w->shape[2], w->shape[3], *in);
      const std::int64_t groups = n.int_attr("group", 1);
      if (groups < 1 || groups > (std::int64_t(1) << 20))
        throw InputError(path + ": Conv '" + n.name + "': group " + std::to_string(groups) +
                         " (expected 1 or more)");
      m.layers.push_back(
          conv_layer(layer_name(w->name), w->name, w->shape[1] * groups, w->shape[0], groups, g));
      m.weights[w->name] = *w;  // ONNX conv weights are already OIHW
      lowered.insert(w->name);
      hw[n.outputs.at(0)] = {g.out_h(), g.out_w()};
    } else if ((n.op_type == "MatMul" || n.op_type == "Gemm") && w && w->shape.size() == 2) {
      // y = x W with W [in, out] (MatMul; Gemm unless transB), tokens the positions of
      // the input feature map.
      if (n.op_type == "Gemm" && n.int_attr("transA", 0) != 0) {
        m.notes.push_back("Gemm '" + n.name + "' not lowered: transA (the activation transposed)");
        continue;
      }
      const bool out_in = n.op_type == "Gemm" && n.int_attr("transB", 0) != 0;
      const std::int64_t in_f = out_in ? w->shape[1] : w->shape[0];
      const std::int64_t out_f = out_in ? w->shape[0] : w->shape[1];
      const std::int64_t tokens = in ? in->first * in->second : 1;
      m.layers.push_back(linear_layer(layer_name(w->name), w->name, in_f, out_f, tokens));
      m.weights[w->name] = out_in ? *w : transpose_2d(*w);
      lowered.insert(w->name);
      if (in) hw[n.outputs.at(0)] = *in;
    } else if (n.op_type == "MatMul" || n.op_type == "Gemm") {
      // No constant 2-D weight: a product of two activations (attention's scores or
      // context), whose heads and lengths the graph does not state here. Said, not run.
      m.notes.push_back(n.op_type + " '" + n.name + "' not lowered: " +
                        (w ? "its constant operand is " + dims_text(w->shape) + ", not 2-D"
                           : std::string("both operands are activations (an attention "
                                         "product?); its time is not counted")));
      if (in) hw[n.outputs.at(0)] = *in;
    } else if ((n.op_type == "AveragePool" || n.op_type == "MaxPool") && in) {
      const auto k = n.ints_attr("kernel_shape");
      if (k.size() != 2)
        throw InputError(path + ": pool '" + n.name + "' without a 2-D kernel_shape");
      const ConvGeometry g = onnx_geometry(path, n, k[0], k[1], *in);
      hw[n.outputs.at(0)] = {g.out_h(), g.out_w()};
    } else if ((n.op_type == "GlobalAveragePool" || n.op_type == "GlobalMaxPool" ||
                n.op_type == "Flatten") &&
               in) {
      hw[n.outputs.at(0)] = {1, 1};
    } else if (in && !n.outputs.empty()) {
      hw[n.outputs[0]] = *in;
    }
  }
  for (const auto& t : onnx.tensors) {
    if (t.shape.size() < 2 || lowered.count(t.name)) continue;
    std::size_t elems = 1;
    for (auto d : t.shape) elems *= std::size_t(d);
    if (elems < 2) continue;
    const auto it = used_by.find(t.name);
    m.notes.push_back("tensor '" + t.name + "' " + dims_text(t.shape) + " not lowered: " +
                      (it == used_by.end()
                           ? std::string("no node reads it")
                           : "read by " + it->second + ", not as a Conv, MatMul or Gemm weight"));
  }
  if (m.layers.empty())
    throw InputError(path + ": no Conv, MatMul or Gemm node with a constant weight to lower");
  return m;
}

}  // namespace stcsim::workloads
