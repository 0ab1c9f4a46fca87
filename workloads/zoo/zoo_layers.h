// Helpers and builders of the zoo's models (internal to workloads/zoo).
#pragma once
#include <cstdint>
#include <string>

#include "workloads/layer.h"

namespace stcsim::workloads::zoo_detail {

// A Linear layer; tokens_h x tokens_w > 0 fixes its tokens per sample (lowering.h).
inline Layer linear(const std::string& name, std::int64_t in, std::int64_t out,
                    std::int64_t tokens_h = 0, std::int64_t tokens_w = 0) {
  Layer l = linear_layer(name, in, out);
  l.in_h = tokens_h;
  l.in_w = tokens_w;
  return l;
}

// A square-input convolution.
inline Layer conv(const std::string& name, std::int64_t cin, std::int64_t cout, std::int64_t kernel,
                  std::int64_t stride, std::int64_t padding, std::int64_t in_hw,
                  std::int64_t groups = 1, std::int64_t dilation = 1) {
  return conv2d_layer(name, cin, cout, kernel, stride, padding, in_hw, in_hw, groups, dilation);
}

// Attention's two batched GEMMs (scores, context) over `heads` heads of hidden / heads,
// and the softmax between them.
void push_attention(Model& m, const std::string& prefix, std::int64_t heads, std::int64_t hidden,
                    bool causal);
// One transformer block: LayerNorms before (pre_ln) or after each sublayer, the qkv
// projection, attention, its output projection and residual add, the GELU MLP and its
// residual add.
void push_block(Model& m, const std::string& prefix, std::int64_t hidden, std::int64_t mlp,
                std::int64_t heads, bool causal, bool pre_ln);
// An embedding lookup, then blocks (push_block; causal and pre-norm for a decoder, with
// a final LayerNorm; post-norm with an embedding LayerNorm for an encoder).
Model encoder_transformer(const std::string& name, int layers, std::int64_t hidden,
                          std::int64_t mlp, std::int64_t heads, bool causal);
Model bert_base();
Model bert_large();
Model gpt2();
Model llama2_7b();
Model vit_b16();
Model resnet50();
Model dlrm_mlperf();
Model dlrm_kaggle();

}  // namespace stcsim::workloads::zoo_detail
