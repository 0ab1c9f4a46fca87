// One entry point for a user's weight file, chosen by its extension:
// .npy, .safetensors, .onnx, .json (TF.js model.json or weights manifest); or a folder
// of .npy files, one tensor each (subfolders included), in natural order of their paths
// ("fc2" before "fc10"), each named by its path inside the folder less ".npy".
#pragma once
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

// InputError for an unknown extension (listing the known ones) or a malformed file.
std::vector<Tensor> load_weights(const std::string& path);

}  // namespace stcsim::workloads
