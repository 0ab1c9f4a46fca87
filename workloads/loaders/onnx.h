// ONNX models, decoded straight from the protobuf wire format: ModelProto -> GraphProto ->
// initializers (TensorProto: dims, data_type, raw_data or the typed *_data fields), nodes
// (op_type, inputs, outputs, int/float/string/tensor attributes) and graph inputs.
// Constant nodes' `value` tensors are weights too: PaddlePaddle's exporter (PP-OCR)
// stores every weight that way rather than as an initializer.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

struct OnnxAttribute {
  std::string name;
  std::int64_t type =
      0;  // AttributeProto.AttributeType: 1 FLOAT, 2 INT, 3 STRING, 4 TENSOR, 6 FLOATS, 7 INTS
  float f = 0;
  std::int64_t i = 0;
  std::string s;
  std::vector<float> floats;
  std::vector<std::int64_t> ints;
  bool has_tensor = false;  // its tensor is in OnnxModel::tensors (Constant nodes only)
};

struct OnnxNode {
  std::string name, op_type, domain;
  std::vector<std::string> inputs, outputs;
  std::vector<OnnxAttribute> attributes;

  const OnnxAttribute* attribute(const std::string& name) const;
  std::int64_t int_attr(const std::string& name, std::int64_t fallback) const;
  std::vector<std::int64_t> ints_attr(const std::string& name,
                                      std::vector<std::int64_t> fallback = {}) const;
};

struct OnnxValueInfo {
  std::string name;
  std::vector<std::int64_t> dims;  // -1 where the dimension is symbolic or unknown
};

struct OnnxModel {
  std::int64_t ir_version = 0;
  std::string producer;
  // Initializers, then Constant-node values named after the node's output, in file order.
  std::vector<Tensor> tensors;
  std::vector<OnnxNode> nodes;  // as stored (ONNX requires topological order)
  std::vector<OnnxValueInfo> inputs, outputs;

  const Tensor* tensor(const std::string& name) const;  // nullptr when absent

 private:
  friend OnnxModel parse_onnx(const std::vector<std::uint8_t>&, const std::string&);
  std::map<std::string, std::size_t> index_;
};

OnnxModel load_onnx(const std::string& path);
OnnxModel parse_onnx(const std::vector<std::uint8_t>& bytes, const std::string& file);
// The weights alone (initializers and Constant values).
std::vector<Tensor> load_onnx_weights(const std::string& path);

}  // namespace stcsim::workloads
