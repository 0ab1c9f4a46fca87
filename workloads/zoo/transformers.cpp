// Transformer shapes: BERT-base/large, GPT-2 (124M), Llama-2-7B, ViT-B/16.
#include "workloads/zoo/zoo_layers.h"

namespace stcsim::workloads::zoo_detail {

void push_attention(Model& m, const std::string& prefix, std::int64_t heads, std::int64_t hidden,
                    bool causal) {
  const std::int64_t head_dim = hidden / heads;
  m.layers.push_back(
      attention_layer(prefix + "attn_scores", LayerKind::AttentionScores, heads, head_dim, causal));
  m.layers.push_back(softmax_layer(prefix + "attn_softmax", heads, causal));
  m.layers.push_back(attention_layer(prefix + "attn_context", LayerKind::AttentionContext, heads,
                                     head_dim, causal));
}

void push_block(Model& m, const std::string& p, std::int64_t hidden, std::int64_t mlp,
                std::int64_t heads, bool causal, bool pre_ln) {
  if (pre_ln) m.layers.push_back(row_op_layer(p + "ln1", "layernorm", hidden));
  m.layers.push_back(linear(p + "qkv", hidden, 3 * hidden));
  push_attention(m, p, heads, hidden, causal);
  m.layers.push_back(linear(p + "attn_out", hidden, hidden));
  m.layers.push_back(row_op_layer(p + "attn_residual", "add", hidden));
  m.layers.push_back(row_op_layer(p + (pre_ln ? "ln2" : "ln1"), "layernorm", hidden));
  m.layers.push_back(linear(p + "mlp_up", hidden, mlp));
  m.layers.push_back(row_op_layer(p + "gelu", "gelu", mlp));
  m.layers.push_back(linear(p + "mlp_down", mlp, hidden));
  m.layers.push_back(row_op_layer(p + "mlp_residual", "add", hidden));
  if (!pre_ln) m.layers.push_back(row_op_layer(p + "ln2", "layernorm", hidden));
}

Model encoder_transformer(const std::string& name, int layers, std::int64_t hidden,
                          std::int64_t mlp, std::int64_t heads, bool causal) {
  Model m;
  m.name = name;
  // A decoder (GPT-2) normalises before each sublayer and once at the end; BERT after.
  const bool pre_ln = causal;
  m.layers.push_back(row_op_layer(name + ".embedding", "embedding", hidden));
  if (!pre_ln) m.layers.push_back(row_op_layer(name + ".embedding_ln", "layernorm", hidden));
  for (int i = 0; i < layers; ++i)
    push_block(m, name + ".l" + std::to_string(i) + ".", hidden, mlp, heads, causal, pre_ln);
  if (pre_ln) m.layers.push_back(row_op_layer(name + ".ln_f", "layernorm", hidden));
  return m;
}

Model bert_base() {
  Model m = encoder_transformer("bert_base", 12, 768, 3072, 12, false);
  m.description = "BERT-base encoder: 12 layers, hidden 768, 12 heads, MLP 3072 (shapes only)";
  m.source =
      "shapes only: Devlin et al. 2019, BERT (arXiv:1810.04805) sec. 3, L=12 H=768 A=12, "
      "FFN 4H; HF bert-base-uncased config.json (109,482,240 parameters in all)";
  return m;
}

Model bert_large() {
  Model m = encoder_transformer("bert_large", 24, 1024, 4096, 16, false);
  m.description = "BERT-large encoder: 24 layers, hidden 1024, 16 heads, MLP 4096 (shapes only)";
  m.source =
      "shapes only: Devlin et al. 2019, BERT (arXiv:1810.04805) sec. 3, L=24 H=1024 A=16, "
      "FFN 4H; HF bert-large-uncased config.json (335,141,888 parameters in all)";
  return m;
}

Model gpt2() {
  Model m = encoder_transformer("gpt2", 12, 768, 3072, 12, true);
  m.layers.push_back(linear("gpt2.lm_head", 768, 50257));
  m.description =
      "GPT-2 small (124M): 12 layers, hidden 768, 12 heads, MLP 3072, context 1024; "
      "lm_head 768 -> 50257 shares the token embedding (shapes only)";
  m.source =
      "shapes only: Radford et al. 2019, 'Language Models are Unsupervised Multitask "
      "Learners' Table 2 (117M, recounted as 124,439,808); HF gpt2 config.json "
      "(n_layer 12, n_embd 768, n_ctx 1024, vocab 50257)";
  return m;
}

Model llama2_7b() {
  Model m;
  m.name = "llama2_7b";
  const std::int64_t h = 4096, mlp = 11008;
  m.layers.push_back(row_op_layer("llama2_7b.embedding", "embedding", h));
  for (int i = 0; i < 32; ++i) {
    const std::string p = m.name + ".l" + std::to_string(i) + ".";
    m.layers.push_back(row_op_layer(p + "input_norm", "rmsnorm", h));
    m.layers.push_back(linear(p + "q_proj", h, h));
    m.layers.push_back(linear(p + "k_proj", h, h));
    m.layers.push_back(linear(p + "v_proj", h, h));
    push_attention(m, p, 32, h, true);
    m.layers.push_back(linear(p + "o_proj", h, h));
    m.layers.push_back(row_op_layer(p + "attn_residual", "add", h));
    m.layers.push_back(row_op_layer(p + "post_attention_norm", "rmsnorm", h));
    m.layers.push_back(linear(p + "gate_proj", h, mlp));
    m.layers.push_back(linear(p + "up_proj", h, mlp));
    m.layers.push_back(row_op_layer(p + "silu_mul", "silu_mul", mlp));
    m.layers.push_back(linear(p + "down_proj", mlp, h));
    m.layers.push_back(row_op_layer(p + "mlp_residual", "add", h));
  }
  m.layers.push_back(row_op_layer("llama2_7b.norm", "rmsnorm", h));
  m.layers.push_back(linear("llama2_7b.lm_head", h, 32000));
  m.description =
      "Llama-2-7B: 32 layers, hidden 4096, 32 heads (no GQA), SwiGLU MLP 11008, "
      "vocab 32000, context 4096 (shapes only)";
  m.source =
      "shapes only: Touvron et al. 2023, Llama 2 (arXiv:2307.09288); HF "
      "meta-llama/Llama-2-7b-hf config.json (6,738,415,616 parameters in all)";
  return m;
}

Model vit_b16() {
  Model m;
  m.name = "vit_b16";
  // Patch embedding: a 16x16 stride-16 conv, 3 -> 768, on 224x224 -> 14x14 patches.
  m.layers.push_back(conv("vit_b16.patch_embed", 3, 768, 16, 16, 0, 224));
  // timm's pre-norm blocks, then the final norm over every token.
  for (int i = 0; i < 12; ++i)
    push_block(m, m.name + ".l" + std::to_string(i) + ".", 768, 3072, 12, false, true);
  m.layers.push_back(row_op_layer("vit_b16.norm", "layernorm", 768));
  // The classifier reads the class token only: one token per image.
  m.layers.push_back(linear("vit_b16.head", 768, 1000, 1, 1));
  m.description =
      "ViT-B/16 at 224x224: patch embedding, 12 layers (hidden 768, MLP 3072) on "
      "197 tokens, 1000-class head (shapes only)";
  m.source =
      "shapes only: Dosovitskiy et al. 2021, ViT (arXiv:2010.11929) Table 1, ViT-Base "
      "L=12 D=768 MLP 3072, patch 16; timm vit_base_patch16_224 (86,567,656 parameters)";
  return m;
}

}  // namespace stcsim::workloads::zoo_detail
