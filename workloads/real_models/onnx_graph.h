// An ONNX graph lowered to GEMM layers by walking its nodes, for the PP-OCRv4 adapter and
// for any .onnx checkpoint a user gives (`--model PATH.onnx`).
//
// Conv (grouped, strided, dilated, explicit pads) becomes a Conv2d layer; MatMul with a
// constant 2-D second input and Gemm with a constant B become Linear layers, the weight
// layout taken from how the node uses it (MatMul's W and Gemm's B are [in, out] unless
// Gemm's transB says [out, in]). Spatial sizes are tracked through the nodes in order
// (ONNX requires topological order): Conv and pools change them, Flatten and the global
// pools make one token per sample, other ops keep their first sized input's. Everything
// not lowered that could be a layer's weight (a constant of rank 2 or more no Conv, MatMul
// or Gemm reads as its weight) is named in Model::notes with the node that uses it.
#pragma once
#include <cstdint>
#include <string>

#include "workloads/layer.h"
#include "workloads/loaders/onnx.h"

namespace stcsim::workloads {

struct OnnxGraphOptions {
  // The input's height and width where the graph leaves them dynamic (0: 224, said in
  // Model::notes); --image rescales from whichever is used.
  std::int64_t dynamic_h = 0, dynamic_w = 0;
};

Model lower_onnx_graph(const std::string& path, const OnnxGraphOptions& opt = {});
// The same on a graph already read from `path` (named in errors and Model::source).
Model lower_onnx_graph(const OnnxModel& onnx, const std::string& path,
                       const OnnxGraphOptions& opt = {});

}  // namespace stcsim::workloads
