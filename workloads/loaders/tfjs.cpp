#include "workloads/loaders/tfjs.h"

#include <algorithm>

#include "workloads/loaders/byte_reader.h"
#include "workloads/loaders/json_depth.h"
#include "workloads/loaders/tfjs_internal.h"

namespace stcsim::workloads {

using nlohmann::json;

const Tensor* TfjsModel::weight(const std::string& name) const {
  for (const auto& t : weights)
    if (t.name == name) return &t;
  return nullptr;
}

TfjsModel load_tfjs(const std::string& path) {
  const auto bytes = read_file_bytes(path);
  return parse_tfjs(std::string(bytes.begin(), bytes.end()), path);
}

TfjsModel parse_tfjs(const std::string& text, const std::string& path) {
  tfjs_detail::JsonSource src{path, text};
  check_json_depth(src.text, path);
  json doc;
  try {
    doc = json::parse(src.text);
  } catch (const json::parse_error& e) {
    throw_at(path, e.byte ? e.byte - 1 : 0, std::string("expected JSON: ") + e.what());
  } catch (const json::exception& e) {  // out_of_range: a number beyond a double (1e999)
    throw_at(path, 0, std::string("expected JSON: ") + e.what());
  }
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  TfjsModel m;
  try {
    if (doc.is_array()) {  // a bare weights manifest (face-api's *-weights_manifest.json)
      m.format = "weights-manifest";
      m.weights = tfjs_detail::read_manifest(doc, src, dir);
      return m;
    }
    if (!doc.is_object() || !doc.contains("weightsManifest"))
      src.fail("weightsManifest",
               "expected a model.json object with a weightsManifest (or a manifest array)");
    m.format = doc.value("format", std::string());
    const json topology = doc.value("modelTopology", json());
    if (m.format.empty())  // older converters omit "format": tell by the topology's shape
      m.format = topology.is_object() && topology.contains("node") ? "graph-model" : "layers-model";
    if (m.format != "graph-model" && m.format != "layers-model")
      src.fail("format", "expected \"layers-model\" or \"graph-model\", not \"" + m.format + "\"");
    m.weights = tfjs_detail::read_manifest(doc["weightsManifest"], src, dir);
    if (!topology.is_null())
      m.ops = m.format == "graph-model" ? tfjs_detail::parse_graph_topology(topology, src)
                                        : tfjs_detail::parse_layers_topology(topology, src);
  } catch (const json::exception& e) {
    // A field of an unexpected JSON type somewhere the checks above did not look;
    // nlohmann does not say where, so the offset is the document's start.
    throw_at(path, 0,
             std::string("unexpected JSON structure (a field of the wrong type): ") + e.what());
  }
  // Each op lists the weights it reads. Layers-model: weights named "<layer>/...",
  // kernel first; graph-model: inputs that are weights (Const nodes), kernel is input 1.
  for (auto& op : m.ops) {
    if (m.format == "layers-model") {
      for (const auto& w : m.weights)
        if (w.name.compare(0, op.name.size() + 1, op.name + "/") == 0) op.weights.push_back(w.name);
      std::stable_partition(op.weights.begin(), op.weights.end(), [](const std::string& n) {
        return n.size() >= 6 && n.compare(n.size() - 6, 6, "kernel") == 0;
      });
    } else {
      std::vector<std::string> data;
      for (const auto& in : op.inputs) (m.weight(in) ? op.weights : data).push_back(in);
      op.inputs = data;
      // Graph models carry no kernel_size: it is the kernel's leading [h, w].
      const bool conv = op.type.find("Conv2D") != std::string::npos ||
                        op.type.find("DepthwiseConv2d") != std::string::npos;
      if (conv && !op.weights.empty()) {
        const Tensor* k = m.weight(op.weights[0]);
        if (k->shape.size() == 4) {
          op.kernel_h = k->shape[0];
          op.kernel_w = k->shape[1];
        }
      }
    }
  }
  return m;
}

std::vector<Tensor> load_tfjs_weights(const std::string& path) { return load_tfjs(path).weights; }

}  // namespace stcsim::workloads
