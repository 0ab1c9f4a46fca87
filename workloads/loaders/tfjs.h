// TensorFlow.js models: model.json (layers-model or graph-model) with a weightsManifest,
// or a bare weights manifest (a JSON array, as face-api ships), plus the binary shards it
// names, concatenated in manifest order. Weights are float32, int32 or bool, optionally
// quantized: {dtype uint8|uint16, scale, min} (value = q * scale + min) or {dtype float16}.
// The topology is read enough to know each op's type, inputs and conv/dense geometry.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

// One layer (layers-model) or node (graph-model) of the topology.
struct TfjsOp {
  std::string name;
  std::string type;                 // Keras class_name ("Conv2D", "Dense", ...) or TF op ("Conv2D",
                                    // "DepthwiseConv2dNative", "_FusedMatMul", ...)
  std::vector<std::string> inputs;  // names of the producing ops, in order
  std::vector<std::string> weights;  // names of the weights it reads (kernel first)
  // Convolution and pooling geometry (height, width); kernel from the config or, for
  // graph models, from the kernel weight's shape.
  std::int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  std::int64_t dilation_h = 1, dilation_w = 1;
  std::string padding;                      // "same", "valid" or "explicit"
  std::vector<std::int64_t> explicit_pads;  // graph models: top, bottom, left, right
  std::int64_t filters = 0, units = 0, groups = 1, depth_multiplier = 1;
  std::int64_t scale = 1;    // upsampling factor (PixelShuffle, UpSampling2D, DepthToSpace)
  bool transpose_b = false;  // MatMul
  std::vector<std::int64_t> input_shape;  // InputLayer / Placeholder (NHWC, -1 = any)
};

struct TfjsModel {
  std::string format;       // "layers-model", "graph-model" or "weights-manifest"
  std::vector<TfjsOp> ops;  // layers-model: the config's order; graph-model: topologically sorted
  std::vector<Tensor> weights;  // in manifest order

  const Tensor* weight(const std::string& name) const;  // nullptr when absent
};

// Reads model.json (or a weights manifest) and its shards from the same folder.
// InputError names the JSON file (with a byte offset for syntax errors, a JSON path for
// missing fields) or the shard and byte offset where the data runs short.
TfjsModel load_tfjs(const std::string& model_json_path);
// The same from the JSON text already read; shards are still read from next to `path`.
TfjsModel parse_tfjs(const std::string& json_text, const std::string& path);
std::vector<Tensor> load_tfjs_weights(const std::string& model_json_path);

}  // namespace stcsim::workloads
