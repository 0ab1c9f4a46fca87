// The per-model adapters behind load_real_model (one file each). Each takes the path of
// its model file inside the fetched package and returns the model's GEMM layers.
#pragma once
#include <string>

#include "workloads/layer.h"

namespace stcsim::workloads {

Model load_ppocrv4_rec(const std::string& onnx_path);
Model load_resnet34_face(const std::string& manifest_path);
Model load_mobilenetv1_faceres(const std::string& model_json_path);
Model load_rdn_esrgan_thick(const std::string& model_json_path);

}  // namespace stcsim::workloads
