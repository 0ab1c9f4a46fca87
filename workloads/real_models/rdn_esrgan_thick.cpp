// ESRGAN-thick x4 (@upscalerjs/esrgan-thick): a Keras functional model in TF.js
// layers-model form. 10 residual-in-residual dense blocks of 3 dense blocks each (4
// growth convs 3x3 -> 32 over 64..160 concatenated channels, then a 3x3 192 -> 64 local
// fusion), wrapped by pre/post 3x3 convs, a 3x3 conv to 48 channels, PixelShuffle4x and
// a 3x3 conv to RGB. The input size is free; 64x64 is the LR patch chosen here.
#include "workloads/loaders/tfjs.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/tfjs_walk.h"

namespace stcsim::workloads {

Model load_rdn_esrgan_thick(const std::string& path) {
  const TfjsModel tfjs = load_tfjs(path);
  Model m;
  m.source = path;
  add_tfjs_layers(tfjs, 64, 64, m);
  return m;
}

}  // namespace stcsim::workloads
