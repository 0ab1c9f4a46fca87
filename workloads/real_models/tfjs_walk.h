// A TF.js topology to GEMM layers: walks the ops in order, tracking each op's spatial
// size from the model input (conv, pool, upsample and global-pool ops change it; every
// other op keeps its first input's), and emits a Layer per Conv2D, DepthwiseConv2D,
// Dense or MatMul with its weight converted to OIHW / [out, in].
#pragma once
#include <cstdint>

#include "workloads/layer.h"
#include "workloads/loaders/tfjs.h"

namespace stcsim::workloads {

// Appends the layers and their weights to `model`; InputError when a GEMM op's spatial
// size or kernel cannot be found.
void add_tfjs_layers(const TfjsModel& tfjs, std::int64_t in_h, std::int64_t in_w, Model& model);

}  // namespace stcsim::workloads
