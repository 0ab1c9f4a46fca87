// Pieces of the TF.js reader shared between its files (not a public interface).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workloads/loaders/tfjs.h"

namespace stcsim::workloads::tfjs_detail {

// The model.json text, for locating things in error messages.
struct JsonSource {
  std::string file;
  std::string text;
  // Byte offset of the first occurrence of `"needle"` in the text (0 when absent).
  std::uint64_t offset_of(const std::string& needle) const;
  [[noreturn]] void fail(const std::string& json_path, const std::string& what,
                         const std::string& near = "") const;
};

// Decodes every weight of a weightsManifest (array of {paths, weights}), reading the
// shards from `dir`.
std::vector<Tensor> read_manifest(const nlohmann::json& manifest, const JsonSource& src,
                                  const std::string& dir);

// Topologies: Keras layers-model (modelTopology) and TF graph-model (modelTopology.node).
std::vector<TfjsOp> parse_layers_topology(const nlohmann::json& topology, const JsonSource& src);
std::vector<TfjsOp> parse_graph_topology(const nlohmann::json& topology, const JsonSource& src);

}  // namespace stcsim::workloads::tfjs_detail
