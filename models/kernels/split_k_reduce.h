// The split-K reduction (CUTLASS's `ReduceSplitK`): after a GEMM whose K was cut into
// slices, a light elementwise kernel sums each output tile's fp32 partials and writes D.
#pragma once
#include <memory>

#include "models/kernels/gemm_tensors.h"
#include "models/sm/cta_program.h"

namespace stcsim {

// The reduction of `gemm`'s `splits` partials (its workspace) into its D.
std::unique_ptr<KernelLaunch> split_k_reduce_launch(const GemmTensors& gemm, int splits);

}  // namespace stcsim
