#include "workloads/zoo/zoo.h"

#include "sim/core/input_error.h"
#include "sim/core/nearest.h"
#include "workloads/zoo/zoo_layers.h"

namespace stcsim::workloads {

namespace {

struct Entry {
  const char* name;
  Model (*build)();
  std::int64_t seq_len;
};

const Entry kEntries[] = {
    {"bert_base", zoo_detail::bert_base, 512},
    {"bert_large", zoo_detail::bert_large, 512},
    {"gpt2", zoo_detail::gpt2, 1024},
    {"llama2_7b", zoo_detail::llama2_7b, 4096},
    {"vit_b16", zoo_detail::vit_b16, 197},
    {"resnet50", zoo_detail::resnet50, 1},
    {"dlrm_mlperf", zoo_detail::dlrm_mlperf, 1},
    {"dlrm_kaggle", zoo_detail::dlrm_kaggle, 1},
};

const Entry& find(const std::string& name) {
  for (const auto& e : kEntries)
    if (name == e.name) return e;
  const auto names = zoo_model_names();
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  const std::string near = nearest_name(name, names);
  throw InputError("unknown zoo model '" + name + "'" +
                   (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                   "; zoo models: " + list);
}

}  // namespace

std::vector<std::string> zoo_model_names() {
  std::vector<std::string> v;
  for (const auto& e : kEntries) v.push_back(e.name);
  return v;
}

Model zoo_model(const std::string& name) {
  Model m = find(name).build();
  m.real_weights = false;
  return m;
}

std::string model_coverage(const Model& model) {
  int linear = 0, conv = 0, depthwise = 0, attention = 0, row_ops = 0;
  bool causal = false;
  for (const auto& l : model.layers) switch (l.kind) {
      case LayerKind::Linear:
        ++linear;
        break;
      case LayerKind::Conv2d:
        ++(l.groups > 1 ? depthwise : conv);
        break;
      case LayerKind::RowOp:
        ++row_ops;
        break;
      case LayerKind::AttentionScores:
      case LayerKind::AttentionContext:
        ++attention;
        causal = causal || l.causal;
        break;
    }
  std::string out;
  auto add = [&out](int n, const std::string& what) {
    if (n > 0) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(conv, "conv");
  add(depthwise, "grouped/depthwise conv");
  add(linear, "linear");
  add(attention, causal ? "attention (causal)" : "attention");
  add(row_ops, "row ops (softmax, norms, activations, adds, embedding)");
  return out;
}

LoweringOptions zoo_lowering_defaults(const std::string& name) {
  LoweringOptions o;
  o.seq_len = find(name).seq_len;
  return o;
}

}  // namespace stcsim::workloads
