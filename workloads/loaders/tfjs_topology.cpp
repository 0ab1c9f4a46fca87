// Topologies of TF.js models, read only as far as GEMM lowering needs: each op's type,
// inputs and conv/pool/dense geometry. Unknown layer types are kept with their inputs.
#include <algorithm>
#include <functional>
#include <map>
#include <queue>

#include "workloads/loaders/tfjs_internal.h"

namespace stcsim::workloads::tfjs_detail {
namespace {

using nlohmann::json;

// A pair [h, w] or a single number used for both (Keras allows either).
void pair_of(const json& cfg, const char* key, std::int64_t& h, std::int64_t& w) {
  if (!cfg.contains(key)) return;
  const json& v = cfg[key];
  if (v.is_number_integer())
    h = w = v.get<std::int64_t>();
  else if (v.is_array() && v.size() == 2 && v[0].is_number_integer() && v[1].is_number_integer()) {
    h = v[0].get<std::int64_t>();
    w = v[1].get<std::int64_t>();
  }
}

// Names of the layers feeding a Keras layer: classic [[["name", 0, 0, {}], ...]] or
// Keras 3 {"args": [{"config": {"keras_history": ["name", 0, 0]}}]}.
void inbound_names(const json& j, std::vector<std::string>& out) {
  if (j.is_object()) {
    if (j.contains("keras_history") && j["keras_history"].is_array() &&
        !j["keras_history"].empty() && j["keras_history"][0].is_string()) {
      out.push_back(j["keras_history"][0].get<std::string>());
      return;
    }
    for (const auto& [k, v] : j.items()) inbound_names(v, out);
  } else if (j.is_array()) {
    if (!j.empty() && j[0].is_string()) {
      out.push_back(j[0].get<std::string>());
      return;
    }
    for (const auto& v : j) inbound_names(v, out);
  }
}

TfjsOp keras_layer(const json& layer, const JsonSource& src, std::size_t index) {
  const std::string path = "modelTopology.layers[" + std::to_string(index) + "]";
  if (!layer.is_object() || !layer.contains("class_name") || !layer["class_name"].is_string())
    src.fail(path, "expected a layer object with a string class_name");
  const json cfg = layer.value("config", json::object());
  TfjsOp op;
  op.type = layer["class_name"].get<std::string>();
  op.name = layer.contains("name") && layer["name"].is_string() ? layer["name"].get<std::string>()
                                                                : cfg.value("name", std::string());
  if (op.name.empty()) src.fail(path, "expected a layer name");
  pair_of(cfg, "kernel_size", op.kernel_h, op.kernel_w);
  pair_of(cfg, "pool_size", op.kernel_h, op.kernel_w);
  pair_of(cfg, "strides", op.stride_h, op.stride_w);
  pair_of(cfg, "dilation_rate", op.dilation_h, op.dilation_w);
  if (cfg.contains("padding") && cfg["padding"].is_string())
    op.padding = cfg["padding"].get<std::string>();
  if (cfg.contains("filters") && cfg["filters"].is_number_integer())
    op.filters = cfg["filters"].get<std::int64_t>();
  if (cfg.contains("units") && cfg["units"].is_number_integer())
    op.units = cfg["units"].get<std::int64_t>();
  if (cfg.contains("groups") && cfg["groups"].is_number_integer())
    op.groups = cfg["groups"].get<std::int64_t>();
  if (cfg.contains("depth_multiplier") && cfg["depth_multiplier"].is_number_integer())
    op.depth_multiplier = cfg["depth_multiplier"].get<std::int64_t>();
  std::int64_t sh = 1, sw = 1;
  pair_of(cfg, "size", sh, sw);   // UpSampling2D
  pair_of(cfg, "scale", sh, sw);  // pixel-shuffle custom layers
  op.scale = sh;
  if (cfg.contains("batch_input_shape") && cfg["batch_input_shape"].is_array())
    for (const auto& d : cfg["batch_input_shape"])
      op.input_shape.push_back(d.is_number_integer() ? d.get<std::int64_t>() : -1);
  if (layer.contains("inbound_nodes") && layer["inbound_nodes"].is_array() &&
      !layer["inbound_nodes"].empty())
    inbound_names(layer["inbound_nodes"][0], op.inputs);  // the first call of a shared layer
  return op;
}

// Integers that graph models write as JSON strings ("3"); anything else reads as -1.
std::int64_t int_of(const json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (!v.is_string()) return -1;
  const std::string s = v.get<std::string>();
  std::int64_t x = 0;
  std::size_t i = s.size() > 1 && s[0] == '-' ? 1 : 0;
  if (i == s.size() || s.size() > 18) return -1;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    x = x * 10 + (s[i] - '0');
  }
  return s[0] == '-' ? -x : x;
}

// Graph-model attributes: {"s": base64}, {"i": "3"}, {"list": {"i": [...]}}, {"b": true}.
std::string base64_decode(const std::string& in) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const std::size_t v = kAlphabet.find(c);
    if (v == std::string::npos) continue;  // '=' padding and whitespace
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

std::vector<std::int64_t> attr_ints(const json& attr, const char* key) {
  std::vector<std::int64_t> v;
  if (!attr.contains(key) || !attr[key].is_object() || !attr[key].contains("list")) return v;
  const json& list = attr[key]["list"];
  if (!list.is_object() || !list.contains("i") || !list["i"].is_array()) return v;
  for (const auto& x : list["i"]) v.push_back(int_of(x));
  return v;
}

std::string attr_string(const json& attr, const char* key) {
  if (!attr.contains(key) || !attr[key].is_object() || !attr[key].contains("s") ||
      !attr[key]["s"].is_string())
    return "";
  return base64_decode(attr[key]["s"].get<std::string>());
}

TfjsOp graph_node(const json& node, const JsonSource& src, std::size_t index) {
  const std::string path = "modelTopology.node[" + std::to_string(index) + "]";
  if (!node.is_object() || !node.contains("name") || !node["name"].is_string() ||
      !node.contains("op") || !node["op"].is_string())
    src.fail(path, "expected a node object with string name and op");
  TfjsOp op;
  op.name = node["name"].get<std::string>();
  op.type = node["op"].get<std::string>();
  if (node.contains("input") && node["input"].is_array())
    for (const auto& in : node["input"]) {
      if (!in.is_string()) src.fail(path + ".input", "expected strings", op.name);
      std::string s = in.get<std::string>();
      if (!s.empty() && s[0] == '^') continue;  // control dependency, not data
      op.inputs.push_back(s.substr(0, s.find(':')));
    }
  const json attr = node.value("attr", json::object());
  const bool nchw = attr_string(attr, "data_format") == "NCHW";
  const std::size_t hi = nchw ? 2 : 1, wi = nchw ? 3 : 2;
  if (const auto s = attr_ints(attr, "strides"); s.size() == 4) {
    op.stride_h = s[hi];
    op.stride_w = s[wi];
  }
  if (const auto d = attr_ints(attr, "dilations"); d.size() == 4) {
    op.dilation_h = d[hi];
    op.dilation_w = d[wi];
  }
  if (const auto k = attr_ints(attr, "ksize"); k.size() == 4) {
    op.kernel_h = k[hi];
    op.kernel_w = k[wi];
  }
  if (const auto p = attr_ints(attr, "explicit_paddings"); p.size() == 8)
    op.explicit_pads = {p[2 * hi], p[2 * hi + 1], p[2 * wi], p[2 * wi + 1]};
  std::string padding = attr_string(attr, "padding");
  std::transform(padding.begin(), padding.end(), padding.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  op.padding = padding;
  if (attr.contains("transpose_b") && attr["transpose_b"].is_object())
    op.transpose_b = attr["transpose_b"].value("b", false);
  if (attr.contains("block_size") && attr["block_size"].is_object() &&
      attr["block_size"].contains("i")) {
    op.scale = int_of(attr["block_size"]["i"]);
  }
  if (attr.contains("shape") && attr["shape"].is_object() && attr["shape"].contains("shape")) {
    const json& shape = attr["shape"]["shape"];
    if (shape.is_object() && shape.contains("dim") && shape["dim"].is_array())
      for (const auto& d : shape["dim"])
        op.input_shape.push_back(d.is_object() && d.contains("size") ? int_of(d["size"]) : -1);
  }
  return op;
}

}  // namespace

std::vector<TfjsOp> parse_layers_topology(const json& topology, const JsonSource& src) {
  // {"class_name", "config"} or {"keras_version", "backend", "model_config": {...}}.
  const json& model = topology.contains("model_config") ? topology["model_config"] : topology;
  if (!model.is_object() || !model.contains("config"))
    src.fail("modelTopology", "expected a Keras model config (model_config.config)");
  const json& cfg = model["config"];
  if (!cfg.is_array() && !cfg.is_object())
    src.fail("modelTopology", "expected a Keras model config object");
  const json& layers = cfg.is_array() ? cfg : cfg.value("layers", json::array());
  if (!layers.is_array() || layers.empty())
    src.fail("modelTopology", "expected a non-empty layers array");
  const bool sequential = model.value("class_name", std::string()) == "Sequential";
  std::vector<TfjsOp> ops;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    ops.push_back(keras_layer(layers[i], src, i));
    if (sequential && i > 0 && ops.back().inputs.empty()) ops.back().inputs = {ops[i - 1].name};
  }
  return ops;
}

std::vector<TfjsOp> parse_graph_topology(const json& topology, const JsonSource& src) {
  if (!topology.contains("node") || !topology["node"].is_array())
    src.fail("modelTopology", "expected a graph with a node array");
  std::vector<TfjsOp> nodes;
  for (std::size_t i = 0; i < topology["node"].size(); ++i)
    nodes.push_back(graph_node(topology["node"][i], src, i));
  // Topological order, stable: the order of repeated passes over the file that take
  // every node whose inputs are all placed. Computed without the passes (a chain stored
  // in reverse would need one pass per node, O(n^2)): a node readied by node i joins the
  // current pass when it lies after i in the file, else the next one; each pass takes its
  // nodes in file order from a min-heap. O((n + e) log n). A cycle leaves nodes out of
  // the order, which is an error.
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i].name] = i;
  std::vector<std::size_t> pending(nodes.size(), 0);
  std::vector<std::vector<std::size_t>> users(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (const auto& in : nodes[i].inputs)
      if (auto it = index.find(in); it != index.end()) {
        ++pending[i];
        users[it->second].push_back(i);
      }
  using MinHeap =
      std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<std::size_t>>;
  MinHeap this_pass;
  std::vector<std::size_t> next_pass;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (pending[i] == 0) this_pass.push(i);
  std::vector<TfjsOp> ordered;
  ordered.reserve(nodes.size());
  while (!this_pass.empty()) {
    const std::size_t i = this_pass.top();
    this_pass.pop();
    ordered.push_back(nodes[i]);
    for (auto u : users[i])
      if (--pending[u] == 0) (u > i ? this_pass.push(u) : next_pass.push_back(u));
    if (this_pass.empty()) {
      for (auto u : next_pass) this_pass.push(u);
      next_pass.clear();
    }
  }
  if (ordered.size() != nodes.size()) src.fail("modelTopology.node", "the graph has a cycle");
  return ordered;
}

}  // namespace stcsim::workloads::tfjs_detail
