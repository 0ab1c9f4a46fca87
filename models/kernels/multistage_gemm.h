// The multistage tensor-core GEMM (CUTLASS's sm80 `MmaMultistage`, and
// `MmaSparseMultistage` for N:M weights on mma.sp): cp.async stages of the A (values,
// plus metadata when sparse) and B tiles, ldmatrix fragments, mma.sync / mma.sp per
// warp, and split-K partials reduced by the split_k_reduce kernel.
#pragma once
#include <vector>

#include "models/kernels/gemm_tensors.h"
#include "models/sm/cta_program.h"

namespace stcsim {

// The CTAs of the kernel problem `kp` under `map` in launch order: split-K slices of
// whole k-tiles, and `map.swizzle` adjacent N-tiles launched together, M fastest within
// them (the rasterization the CUDA kernels in validation/ share). Returns the number of
// non-empty K slices in `splits`.
std::vector<CtaTask> multistage_cta_order(const GemmOp& kp, const KernelMapping& map,
                                          int* splits = nullptr);

}  // namespace stcsim
