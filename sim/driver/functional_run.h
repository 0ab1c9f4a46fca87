// Functional mode: compute a GEMM's output values as the simulated kernel would (its
// instruction chain, split-K order and the GPU's accumulation model), write operands
// and outputs as .npy, and measure the error against the exact result on a sample.
// Timing-only stays the default; this is opt-in (`stcsim run --functional`).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "models/kernels/op_result.h"

namespace stcsim {

class StagedFiles;

struct FunctionalOptions {
  std::string out_dir;
  std::string numerics;  // accumulation preset (tensor_core.numerics)
  std::uint64_t seed = 1;
  // Where the .npy files go: staged with the run's other outputs (committed together by
  // the caller), or written one by one when null.
  StagedFiles* staged = nullptr;
};

// `r` is the op's timing result (its mapping fixes the split-K order; its dot_unit, when
// the tensor core has one, computes each instruction's dot product). The weights are
// the trace's when it carries them (op.weights), else seeded random values pruned by
// magnitude to the op's N:M pattern; activations are seeded random, never all zero.
// Returns what was written and the error figures.
nlohmann::json run_functional(const OpResult& r, const FunctionalOptions& opt, int index);

}  // namespace stcsim
