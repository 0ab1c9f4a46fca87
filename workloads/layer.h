// A network layer that becomes one or more GEMMs, and a model as its layers in
// execution order. Weight tensors are owned by the model (by name); shape-only models
// have layers but no weights.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

// AttentionScores and AttentionContext are the two batched GEMMs of multi-head
// attention, one per head and sample, with no weight operand: the scores S = Q K^T
// (tokens x tokens, K = head size) and the context O = P V (tokens x head size, K =
// tokens), P = softmax(S).
// RowOp is a non-GEMM op (softmax, a norm, an activation, a residual add, an embedding
// lookup; models/common/row_op.h) over rows of in_features elements.
enum class LayerKind { Linear, Conv2d, AttentionScores, AttentionContext, RowOp };

struct Layer {
  std::string name;
  LayerKind kind = LayerKind::Linear;
  // Linear: y[tokens, out] = x[tokens, in] W^T with W [out, in].
  // Conv2d: weight [out_channels, in_channels / groups, kernel_h, kernel_w] (OIHW).
  std::int64_t in_features = 0, out_features = 0;  // Linear; Conv2d: in/out channels
  std::int64_t kernel_h = 1, kernel_w = 1, stride = 1, padding = 0, dilation = 1, groups = 1;
  std::int64_t in_h = 0, in_w = 0;  // Conv2d input spatial size at the model's default input
  std::string weight;  // name of the weight tensor in Model::weights ("" if shape-only)
  // Attention layers: in_features = out_features = the head size, `heads` heads per
  // sample, and whether a causal mask hides later tokens (decoders).
  std::int64_t heads = 0;
  bool causal = false;
  // RowOp layers: the op's name ("softmax", "layernorm", ...); rows are the tokens, or
  // heads x tokens rows of tokens elements for attention's softmax (heads > 0).
  std::string row_op;

  bool has_weight_operand() const { return kind == LayerKind::Linear || kind == LayerKind::Conv2d; }
};

// Constructors of a shape-only layer (no weight tensor named).
inline Layer linear_layer(const std::string& name, std::int64_t in, std::int64_t out) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::Linear;
  l.in_features = in;
  l.out_features = out;
  return l;
}

inline Layer conv2d_layer(const std::string& name, std::int64_t cin, std::int64_t cout,
                          std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                          std::int64_t in_h, std::int64_t in_w, std::int64_t groups = 1,
                          std::int64_t dilation = 1) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::Conv2d;
  l.in_features = cin;
  l.out_features = cout;
  l.kernel_h = l.kernel_w = kernel;
  l.stride = stride;
  l.padding = padding;
  l.dilation = dilation;
  l.groups = groups;
  l.in_h = in_h;
  l.in_w = in_w;
  return l;
}

// The two GEMMs of one attention block: `heads` heads of `head_dim`, causal or not.
inline Layer attention_layer(const std::string& name, LayerKind kind, std::int64_t heads,
                             std::int64_t head_dim, bool causal) {
  Layer l;
  l.name = name;
  l.kind = kind;
  l.in_features = l.out_features = head_dim;
  l.heads = heads;
  l.causal = causal;
  return l;
}

// A non-GEMM op over each token's `features` elements.
inline Layer row_op_layer(const std::string& name, const std::string& op, std::int64_t features) {
  Layer l;
  l.name = name;
  l.kind = LayerKind::RowOp;
  l.row_op = op;
  l.in_features = l.out_features = features;
  return l;
}

// Attention's softmax: per sample and head, rows of the scores (causal: row i keeps i + 1).
inline Layer softmax_layer(const std::string& name, std::int64_t heads, bool causal) {
  Layer l = row_op_layer(name, "softmax", 1);
  l.heads = heads;
  l.causal = causal;
  return l;
}

struct Model {
  std::string name;
  std::string description;
  std::string source;  // package@version and file, or "shapes only: <paper>"
  bool real_weights = false;
  std::vector<Layer> layers;              // execution order
  std::map<std::string, Tensor> weights;  // by Layer::weight, in OIHW / [out, in] order
  // What the loader could not lower or had to assume (a tensor skipped and why, a dynamic
  // input size): printed before a run, never dropped silently.
  std::vector<std::string> notes;
};

}  // namespace stcsim::workloads
