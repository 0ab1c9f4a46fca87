// face-api's face recognition net (@vladmandic/face-api): dlib's ResNet-34 variant. The
// package ships only a weights manifest (uint8-quantized, except the conv64 kernels in
// fp32); the topology is code, reproduced here from src/faceRecognitionNet/ of the same
// package: a 7x7/2 'valid' conv, 3x3/2 max pool, residual blocks of two 3x3 'same' convs
// (the *_down blocks start with a 3x3/2 'valid' conv and zero-pad the result up to the
// avg-pooled shortcut's size when it is smaller), global mean, fc 256 -> 128. Input 150x150.
#include <string>

#include "sim/core/input_error.h"
#include "workloads/loaders/tfjs.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/conv_geometry.h"

namespace stcsim::workloads {
namespace {

struct Walk {
  const TfjsModel& tfjs;
  Model& m;
  std::int64_t h = 150, w = 150;

  // One conv of the net: "<scope>/conv/filters" ([kh, kw, in, out]).
  void conv(const std::string& scope, std::int64_t stride, const char* padding) {
    const Tensor* k = tfjs.weight(scope + "/conv/filters");
    if (!k || k->shape.size() != 4)
      throw InputError(m.source + ": expected weight " + scope + "/conv/filters [kh, kw, in, out]");
    const ConvGeometry g =
        tf_conv_geometry(k->shape[0], k->shape[1], stride, stride, 1, 1, padding, h, w);
    m.layers.push_back(conv_layer(scope, k->name, k->shape[2], k->shape[3], 1, g));
    m.weights[k->name] = hwio_to_oihw(*k);
    h = g.out_h();
    w = g.out_w();
  }
  void residual(const std::string& block, bool down) {
    const std::int64_t pooled_h = h / 2, pooled_w = w / 2;  // avgPool 2x2/2 'valid' shortcut
    conv(block + "/conv1", down ? 2 : 1, down ? "valid" : "same");
    conv(block + "/conv2", 1, "same");
    if (down && (h < pooled_h || w < pooled_w)) {
      h = pooled_h;
      w = pooled_w;
    }  // zero-padded up
  }
};

}  // namespace

Model load_resnet34_face(const std::string& path) {
  const TfjsModel tfjs = load_tfjs(path);
  Model m;
  m.source = path;
  Walk walk{tfjs, m};
  walk.conv("conv32_down", 2, "valid");
  walk.h = (walk.h - 3) / 2 + 1;  // maxPool 3x3/2 'valid'
  walk.w = (walk.w - 3) / 2 + 1;
  for (const char* b : {"conv32_1", "conv32_2", "conv32_3"}) walk.residual(b, false);
  walk.residual("conv64_down", true);
  for (const char* b : {"conv64_1", "conv64_2", "conv64_3"}) walk.residual(b, false);
  walk.residual("conv128_down", true);
  for (const char* b : {"conv128_1", "conv128_2"}) walk.residual(b, false);
  walk.residual("conv256_down", true);
  for (const char* b : {"conv256_1", "conv256_2"}) walk.residual(b, false);
  walk.residual("conv256_down_out", true);
  const Tensor* fc = tfjs.weight("fc");  // matMul(mean over h, w [1, 256], fc [256, 128])
  if (!fc || fc->shape.size() != 2) throw InputError(m.source + ": expected weight fc [256, 128]");
  m.layers.push_back(linear_layer("fc", "fc", fc->shape[0], fc->shape[1], 1));
  m.weights["fc"] = transpose_2d(*fc);
  return m;
}

}  // namespace stcsim::workloads
