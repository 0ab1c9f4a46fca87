#include "workloads/loaders/load_weights.h"

#include "sim/core/input_error.h"
#include "workloads/loaders/npy.h"
#include "workloads/loaders/onnx.h"
#include "workloads/loaders/safetensors.h"
#include "workloads/loaders/tfjs.h"

namespace stcsim::workloads {

static bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<Tensor> load_weights(const std::string& path) {
  if (ends_with(path, ".npy")) return load_npy(path);
  if (ends_with(path, ".safetensors")) return load_safetensors(path);
  if (ends_with(path, ".onnx")) return load_onnx_weights(path);
  if (ends_with(path, ".json")) return load_tfjs_weights(path);
  throw InputError(path +
                   ": unknown weight file type; expected .npy, .safetensors, .onnx or "
                   ".json (TF.js model.json or weights manifest)");
}

}  // namespace stcsim::workloads
