// The shapes-only zoo: parameter counts against the published ones, GEMM shapes after
// lowering.
#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "workloads/lowering/lowering.h"
#include "workloads/zoo/zoo.h"

using namespace stcsim;
using namespace stcsim::workloads;

namespace {

std::int64_t weight_params(const Model& m) {
  std::int64_t n = 0;
  for (const auto& g : lower_model(m, LoweringOptions{})) n += g.weight_params();
  return n;
}

// Biases of every layer (one per output feature / channel).
std::int64_t out_features(const Model& m) {
  std::int64_t n = 0;
  for (const auto& l : m.layers)
    if (l.has_weight_operand()) n += l.out_features;
  return n;
}

const LoweredGemm& find(const std::vector<LoweredGemm>& gs, const std::string& name) {
  for (const auto& g : gs)
    if (g.name == name) return g;
  FAIL("no GEMM named " << name);
  throw 0;
}

// Layers of `kind` in `m`.
int count(const Model& m, LayerKind kind) {
  int n = 0;
  for (const auto& l : m.layers) n += l.kind == kind;
  return n;
}

void check_shape(const LoweredGemm& g, std::int64_t m, std::int64_t n, std::int64_t k,
                 int batch = 1) {
  INFO(g.name);
  CHECK(g.m == m);
  CHECK(g.n == n);
  CHECK(g.k == k);
  CHECK(g.batch == batch);
}

}  // namespace

TEST_CASE("zoo_lists_its_models_and_labels_them_shapes_only", "[zoo]") {
  const auto names = zoo_model_names();
  for (const char* n : {"bert_base", "bert_large", "gpt2", "llama2_7b", "vit_b16", "resnet50",
                        "dlrm_mlperf", "dlrm_kaggle"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  for (const auto& n : names) {
    INFO(n);
    const Model m = zoo_model(n);
    CHECK(m.name == n);
    CHECK_FALSE(m.real_weights);
    CHECK(m.weights.empty());
    CHECK_THAT(m.source, Catch::StartsWith("shapes only: "));
    CHECK_FALSE(m.description.empty());
    CHECK_NOTHROW(lower_model(m, zoo_lowering_defaults(n)));
  }
  CHECK_THROWS_WITH(zoo_model("bert-base"), Catch::Contains("did you mean 'bert_base'"));
  CHECK_THROWS_AS(zoo_lowering_defaults("resnet"), InputError);
}

TEST_CASE("zoo_bert_parameter_counts", "[zoo]") {
  // Encoder linear weights: 12 x (4 x 768^2 + 2 x 768 x 3072).
  const Model base = zoo_model("bert_base");
  // Per layer 4 linear and 2 attention GEMMs, softmax, 2 LayerNorms, GELU and 2 residual
  // adds; the embedding lookup and its LayerNorm.
  CHECK(count(base, LayerKind::Linear) == 12 * 4);
  CHECK(count(base, LayerKind::AttentionScores) == 12);
  CHECK(count(base, LayerKind::RowOp) == 12 * 6 + 2);
  CHECK(base.layers.size() == 12 * 12 + 2);
  CHECK(weight_params(base) == 84934656);
  // With biases, layer norms (2 x 2 x 768 per layer), embeddings (30522 + 512 + 2 tokens
  // x 768, + LN) and the pooler (768^2 + 768): HF bert-base-uncased's 109,482,240.
  const std::int64_t emb = (30522 + 512 + 2) * 768 + 2 * 768, pooler = 768 * 768 + 768;
  CHECK(weight_params(base) + out_features(base) + 12 * 4 * 768 + emb + pooler == 109482240);

  const Model large = zoo_model("bert_large");
  CHECK(large.layers.size() == 24 * 12 + 2);
  CHECK(weight_params(large) == 301989888);
  const std::int64_t emb_l = (30522 + 512 + 2) * 1024 + 2 * 1024, pooler_l = 1024 * 1024 + 1024;
  CHECK(weight_params(large) + out_features(large) + 24 * 4 * 1024 + emb_l + pooler_l == 335141888);
}

TEST_CASE("zoo_gpt2_124m", "[zoo]") {
  const Model m = zoo_model("gpt2");
  const std::int64_t all = weight_params(m);
  const std::int64_t lm_head = 768 * 50257;  // = the token embedding wte, tied
  CHECK(all - lm_head == 84934656);
  // Blocks (weights, biases, 2 LNs each) + final LN + wte + wpe (1024 x 768): 124,439,808.
  const std::int64_t blocks = all - lm_head + out_features(m) - 50257 + 12 * 4 * 768;
  CHECK(blocks + 2 * 768 + lm_head + 1024 * 768 == 124439808);
}

TEST_CASE("zoo_llama2_7b", "[zoo]") {
  const Model m = zoo_model("llama2_7b");
  // Per layer 7 linear and 2 attention GEMMs, softmax, 2 RMSNorms, SiLU-mul, 2 adds; the
  // embedding, the final norm and lm_head.
  CHECK(m.layers.size() == 32 * 15 + 3);
  const std::int64_t lm_head = 4096 * 32000;
  const std::int64_t linear = weight_params(m) - lm_head;
  CHECK(linear == 6476005376);  // ~6.5B in the projections and MLPs
  // + embeddings + lm_head + RMSNorm weights (2 per layer + final): 6,738,415,616.
  CHECK(linear + 2 * lm_head + (2 * 32 + 1) * 4096 == 6738415616);
  const auto g = lower_model(m, zoo_lowering_defaults("llama2_7b"));
  check_shape(find(g, "llama2_7b.l0.q_proj"), 4096, 4096, 4096);
  check_shape(find(g, "llama2_7b.l31.gate_proj"), 4096, 11008, 4096);
  check_shape(find(g, "llama2_7b.l31.down_proj"), 4096, 4096, 11008);
  check_shape(g.back(), 4096, 32000, 4096);
  CHECK(g[3].name == "llama2_7b.l0.k_proj");
  CHECK(g[14].name == "llama2_7b.l0.down_proj");
  // Causal attention over 32 heads of 128 at 4096 tokens, after the v projection, with
  // the causal softmax between its GEMMs.
  check_shape(g[5], 4096, 4096, 128, 32);
  CHECK(g[5].name == "llama2_7b.l0.attn_scores");
  CHECK(g[5].causal == "output");
  CHECK(g[5].a_role == kRoleQueries);
  CHECK(g[5].b_role == kRoleKeys);
  check_shape(g[6], 4096, 4096, 1, 32);
  CHECK(g[6].row_op == "softmax");
  CHECK(g[6].causal == "output");
  check_shape(g[7], 4096, 128, 4096, 32);
  CHECK(g[7].causal == "a");
  CHECK(g[7].a_role == kRoleProbs);
  CHECK(g[7].b_role == kRoleValuesT);
  CHECK(g[5].weight_params() == 0);
  // Row ops over the tokens: the norms (4096), SwiGLU's silu-mul (11008).
  check_shape(g[0], 4096, 4096, 1);
  CHECK(g[0].row_op == "embedding");
  CHECK(g[1].row_op == "rmsnorm");
  check_shape(find(g, "llama2_7b.l0.silu_mul"), 4096, 11008, 1);
  CHECK(find(g, "llama2_7b.l0.silu_mul").weight_params() == 0);
  CHECK(g[g.size() - 2].row_op == "rmsnorm");
}

TEST_CASE("zoo_attention_per_head_causal_only_in_decoders", "[zoo]") {
  struct Want {
    const char* model;
    int heads;
    std::int64_t head_dim, tokens;
    bool causal;
  };
  for (const Want w :
       {Want{"bert_base", 12, 64, 512, false}, Want{"bert_large", 16, 64, 512, false},
        Want{"gpt2", 12, 64, 1024, true}, Want{"vit_b16", 12, 64, 197, false},
        Want{"llama2_7b", 32, 128, 4096, true}}) {
    INFO(w.model);
    LoweringOptions o = zoo_lowering_defaults(w.model);
    o.batch = 2;
    const auto g = lower_model(zoo_model(w.model), o);
    int scores = 0, context = 0;
    for (const auto& x : g) {
      if (x.a_role == kRoleQueries) {
        ++scores;
        check_shape(x, w.tokens, w.tokens, w.head_dim, 2 * w.heads);
        CHECK(x.causal == (w.causal ? "output" : ""));
      } else if (x.a_role == kRoleProbs) {
        ++context;
        check_shape(x, w.tokens, w.head_dim, w.tokens, 2 * w.heads);
        CHECK(x.causal == (w.causal ? "a" : ""));
      }
    }
    CHECK(scores > 0);
    CHECK(scores == context);
  }
  CHECK(model_coverage(zoo_model("gpt2")) ==
        "49 linear, 24 attention (causal), 74 row ops (softmax, norms, activations, adds, "
        "embedding)");
  CHECK(model_coverage(zoo_model("bert_base")) ==
        "48 linear, 24 attention, 74 row ops (softmax, norms, activations, adds, embedding)");
  CHECK(model_coverage(zoo_model("resnet50")) == "53 conv, 1 linear");
}

TEST_CASE("zoo_vit_b16", "[zoo]") {
  const Model m = zoo_model("vit_b16");
  // patch conv 768 x 3 x 16 x 16 + blocks + head 768 x 1000
  CHECK(weight_params(m) == 589824 + 84934656 + 768000);
  // + biases, 2 LNs per block, final LN, class token, position embedding (197 x 768): timm's
  // 86,567,656.
  CHECK(weight_params(m) + out_features(m) + 12 * 4 * 768 + 2 * 768 + 768 + 197 * 768 == 86567656);
  const auto g = lower_model(m, zoo_lowering_defaults("vit_b16"));
  check_shape(g.front(), 196, 768, 768);  // 14 x 14 patches, K = 3 x 16 x 16
  check_shape(find(g, "vit_b16.l0.qkv"), 197, 2304, 768);
  check_shape(find(g, "vit_b16.l11.mlp_down"), 197, 768, 3072);
  check_shape(g.back(), 1, 1000, 768);
  LoweringOptions o = zoo_lowering_defaults("vit_b16");
  o.batch = 8;
  o.image_h = o.image_w = 384;
  o.seq_len = 24 * 24 + 1;
  const auto g384 = lower_model(m, o);
  check_shape(g384.front(), 8 * 576, 768, 768);
  check_shape(find(g384, "vit_b16.l0.qkv"), 8 * 577, 2304, 768);
  check_shape(find(g384, "vit_b16.l0.attn_softmax"), 577, 577, 1, 8 * 12);
  check_shape(g384.back(), 8, 1000, 768);
}

TEST_CASE("zoo_resnet50", "[zoo]") {
  const Model m = zoo_model("resnet50");
  CHECK(m.layers.size() == 53 + 1);  // 49 + 4 downsample convs, fc
  // Conv and fc weights, + 2 BN parameters per conv output channel + fc bias: torchvision's
  // 25,557,032.
  const std::int64_t w = weight_params(m);
  CHECK(w == 25502912);
  CHECK(w + 2 * (out_features(m) - 1000) + 1000 == 25557032);
  LoweringOptions o;
  o.batch = 1;
  const auto g = lower_model(m, o);
  check_shape(g.front(), 112 * 112, 64, 3 * 49);
  check_shape(find(g, "resnet50.layer1.0.conv1"), 56 * 56, 64, 64);
  check_shape(find(g, "resnet50.layer1.0.conv2"), 56 * 56, 64, 64 * 9);
  check_shape(find(g, "resnet50.layer1.0.downsample"), 56 * 56, 256, 64);
  check_shape(find(g, "resnet50.layer2.0.conv2"), 28 * 28, 128, 128 * 9);  // stride 2
  check_shape(find(g, "resnet50.layer2.0.downsample"), 28 * 28, 512, 256);
  check_shape(find(g, "resnet50.layer3.5.conv3"), 14 * 14, 1024, 256);
  check_shape(find(g, "resnet50.layer4.2.conv3"), 7 * 7, 2048, 512);
  check_shape(g.back(), 1, 1000, 2048);
  // torchvision's order inside a bottleneck: conv1, conv2, conv3, downsample.
  CHECK(g[1].name == "resnet50.layer1.0.conv1");
  CHECK(g[4].name == "resnet50.layer1.0.downsample");
  // Batch 32 at 256 x 256.
  o.batch = 32;
  o.image_h = o.image_w = 256;
  const auto g256 = lower_model(m, o);
  check_shape(g256.front(), 32 * 128 * 128, 64, 147);
  check_shape(find(g256, "resnet50.layer4.2.conv3"), 32 * 8 * 8, 2048, 512);
  check_shape(g256.back(), 32, 1000, 2048);
  // Dense FLOPs at 224: about 4.1 GMAC per image.
  double flops = 0;
  for (const auto& x : g) flops += x.flops();
  CHECK(flops / 2 == Approx(4.09e9).epsilon(0.02));
}

TEST_CASE("zoo_dlrm_mlps", "[zoo]") {
  const Model p = zoo_model("dlrm_mlperf");
  REQUIRE(p.layers.size() == 3 + 5);
  LoweringOptions o;
  o.batch = 2048;
  const auto g = lower_model(p, o);
  check_shape(g[0], 2048, 512, 13);
  check_shape(g[2], 2048, 128, 256);
  check_shape(g[3], 2048, 1024, 479);  // 27 x 26 / 2 + 128
  check_shape(g.back(), 2048, 1, 256);
  CHECK(weight_params(p) ==
        13 * 512 + 512 * 256 + 256 * 128 + 479 * 1024 + 1024 * 1024 + 1024 * 512 + 512 * 256 + 256);
  const Model k = zoo_model("dlrm_kaggle");
  const auto gk = lower_model(k, o);
  REQUIRE(gk.size() == 4 + 3);
  check_shape(gk[3], 2048, 16, 64);
  check_shape(gk[4], 2048, 512, 367);  // 27 x 26 / 2 + 16
  check_shape(gk.back(), 2048, 1, 256);
}

TEST_CASE("zoo_bert_base_matches_the_default_workload", "[zoo]") {
  // README's default set: one BERT-base layer at 8 x 512 tokens.
  LoweringOptions o = zoo_lowering_defaults("bert_base");
  CHECK(o.seq_len == 512);
  o.batch = 8;
  const auto g = lower_model(zoo_model("bert_base"), o);
  check_shape(find(g, "bert_base.l0.qkv"), 4096, 2304, 768);
  check_shape(find(g, "bert_base.l0.attn_out"), 4096, 768, 768);
  check_shape(find(g, "bert_base.l0.mlp_up"), 4096, 3072, 768);
  check_shape(find(g, "bert_base.l0.mlp_down"), 4096, 768, 3072);
  check_shape(find(g, "bert_base.l0.gelu"), 4096, 3072, 1);
  check_shape(find(g, "bert_base.l0.attn_softmax"), 512, 512, 1, 8 * 12);
  CHECK(find(g, "bert_base.l0.attn_softmax").causal.empty());
  const auto gpt = lower_model(zoo_model("gpt2"), zoo_lowering_defaults("gpt2"));
  check_shape(gpt.back(), 1024, 50257, 768);
}
