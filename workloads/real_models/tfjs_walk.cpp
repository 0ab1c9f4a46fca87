#include "workloads/real_models/tfjs_walk.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/core/input_error.h"
#include "workloads/real_models/conv_geometry.h"

namespace stcsim::workloads {
namespace {

using Hw = std::pair<std::int64_t, std::int64_t>;

const std::set<std::string> kConv = {"Conv2D", "_FusedConv2D"};
const std::set<std::string> kDepthwise = {"DepthwiseConv2D", "DepthwiseConv2dNative",
                                          "FusedDepthwiseConv2dNative"};
const std::set<std::string> kDense = {"Dense", "MatMul", "_FusedMatMul"};
const std::set<std::string> kPool = {"MaxPooling2D", "AveragePooling2D", "MaxPool", "AvgPool"};
const std::set<std::string> kGlobal = {"GlobalAveragePooling2D", "GlobalMaxPooling2D", "Mean",
                                       "Flatten"};
const std::set<std::string> kUpsample = {"UpSampling2D", "DepthToSpace"};

bool is_upsample(const TfjsOp& op) {
  return kUpsample.count(op.type) || op.type.rfind("PixelShuffle", 0) == 0;
}

// Layer name: the Keras layer's name; for graph nodes the weight's leading scope
// ("conv_pw_13/convolution/merged_input" -> "conv_pw_13"), which is the Keras name.
std::string layer_name(const TfjsModel& m, const TfjsOp& op) {
  if (m.format != "graph-model" || op.weights.empty()) return op.name;
  return op.weights[0].substr(0, op.weights[0].find('/'));
}

ConvGeometry geometry(const TfjsOp& op, const Hw& in) {
  if (op.padding == "explicit") {
    ConvGeometry g = tf_conv_geometry(op.kernel_h, op.kernel_w, op.stride_h, op.stride_w,
                                      op.dilation_h, op.dilation_w, "valid", in.first, in.second);
    if (op.explicit_pads.size() == 4) {
      g.pad_top = op.explicit_pads[0];
      g.pad_bottom = op.explicit_pads[1];
      g.pad_left = op.explicit_pads[2];
      g.pad_right = op.explicit_pads[3];
    }
    return g;
  }
  return tf_conv_geometry(op.kernel_h, op.kernel_w, op.stride_h, op.stride_w, op.dilation_h,
                          op.dilation_w, op.padding.empty() ? "valid" : op.padding, in.first,
                          in.second);
}

}  // namespace

void add_tfjs_layers(const TfjsModel& m, std::int64_t in_h, std::int64_t in_w, Model& model) {
  std::map<std::string, Hw> hw;
  for (const auto& op : m.ops) {
    const Hw* in = nullptr;
    for (const auto& name : op.inputs)
      if (auto it = hw.find(name); it != hw.end()) {
        in = &it->second;
        break;
      }
    const bool gemm = kConv.count(op.type) || kDepthwise.count(op.type) || kDense.count(op.type);
    if (op.type == "InputLayer" || op.type == "Placeholder") {
      hw[op.name] = {in_h, in_w};
      continue;
    }
    if (gemm && op.weights.empty())
      throw InputError(model.source + ": " + op.type + " '" + op.name +
                       "' has no weight in the manifest");
    if (gemm && !in && !kDense.count(op.type))
      throw InputError(model.source + ": cannot tell the input size of " + op.type + " '" +
                       op.name + "'");
    const Tensor* w = gemm ? m.weight(op.weights[0]) : nullptr;
    const std::string name = layer_name(m, op);
    if (kConv.count(op.type) || kDepthwise.count(op.type)) {
      const ConvGeometry g = geometry(op, *in);
      const bool dw = kDepthwise.count(op.type) > 0;
      Tensor oihw = dw ? depthwise_to_oihw(*w) : hwio_to_oihw(*w);
      const std::int64_t out = oihw.shape[0], per_group = oihw.shape[1];
      const std::int64_t groups = dw ? w->shape[2] : std::max<std::int64_t>(op.groups, 1);
      model.layers.push_back(conv_layer(name, w->name, per_group * groups, out, groups, g));
      model.weights[w->name] = std::move(oihw);
      hw[op.name] = {g.out_h(), g.out_w()};
    } else if (kDense.count(op.type)) {
      // Dense / MatMul kernels are [in, out] ([out, in] when transpose_b); tokens per
      // sample are the spatial positions it is applied at (1 after global pooling).
      Tensor t = op.transpose_b ? *w : transpose_2d(*w);
      const std::int64_t tokens = in ? in->first * in->second : 1;
      model.layers.push_back(linear_layer(name, w->name, t.shape[1], t.shape[0], tokens));
      model.weights[w->name] = std::move(t);
      if (in) hw[op.name] = *in;
    } else if (kPool.count(op.type) && in) {
      const ConvGeometry g = geometry(op, *in);
      hw[op.name] = {g.out_h(), g.out_w()};
    } else if (kGlobal.count(op.type) && in) {
      hw[op.name] = {1, 1};
    } else if (is_upsample(op) && in) {
      hw[op.name] = {in->first * op.scale, in->second * op.scale};
    } else if (in) {
      hw[op.name] = *in;
    }
  }
}

}  // namespace stcsim::workloads
