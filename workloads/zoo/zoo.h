// The shapes-only model zoo: published architectures as Models without weights
// (real_weights = false; traces made from them are labelled synthetic). Each Model's
// `source` cites where its shapes come from. Its layers are GEMMs: those with a weight
// operand and, in the transformers, attention's score and context products per head
// (causal in the decoders); embeddings, norms, softmax and pools are not GEMMs and are
// not listed (zoo_coverage says so per model).
//
//   bert_base, bert_large  encoder layers: qkv (fused), attn_scores, attn_context,
//                          attn_out, mlp_up, mlp_down
//   gpt2                   124M: 12 layers as BERT-base (causal), plus lm_head (tied to wte)
//   llama2_7b              32 layers: q, k, v, causal attention, o, gate, up, down; lm_head
//   vit_b16                patch embedding (conv 16x16 stride 16), 12 blocks, head
//   resnet50               every conv (torchvision v1.5: stride on the 3x3), fc
//   dlrm_mlperf            DLRM MLPs, MLPerf (Criteo Terabyte) config
//   dlrm_kaggle            DLRM MLPs, the reference code's Criteo Kaggle config
#pragma once
#include <string>
#include <vector>

#include "workloads/layer.h"
#include "workloads/lowering/lowering.h"

namespace stcsim::workloads {

std::vector<std::string> zoo_model_names();

// InputError naming the nearest zoo model for an unknown name.
Model zoo_model(const std::string& name);

// The lowering a model is usually run at: batch 1 and its sequence length (BERT 512,
// GPT-2 1024, Llama-2 4096, ViT-B/16 197 = 14 x 14 patches + the class token; 1 for
// models whose Linear layers have a fixed token count). With another image size, ViT's
// seq_len is (H/16)(W/16) + 1: lowering does not derive it.
LoweringOptions zoo_lowering_defaults(const std::string& name);

// What a model's layers cover, for `stcsim models`: its GEMMs by kind ("48 linear,
// 24 attention (causal)"; depthwise and grouped convolutions counted apart).
std::string model_coverage(const Model& model);

}  // namespace stcsim::workloads
