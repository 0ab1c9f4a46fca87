// The tile configurations CUTLASS's kernel generator instantiates for sm80 (what its
// profiler and the libraries built from it choose among), as the chooser's candidates
// under `mapping.policy: cutlass_sm80`. Source: NVIDIA/cutlass,
// python/cutlass_library/generator.py: GenerateSM80_TensorOp_16816 (f16/bf16 dense),
// GenerateSM80_SparseTensorOp_16832 (f16/bf16 2:4; its K is the dense problem's K) and
// GenerateSM80_TensorOp_16832_TN (s8 dense). CTA tile MxNxK, warps along M and N, stages.
#pragma once
#include <vector>

#include "models/common/mma_kind.h"
#include "models/mapping/kernel_mapping.h"

namespace stcsim {

// InputError for a kind CUTLASS's sm80 lists here do not cover (tf32, int8 2:4).
std::vector<KernelMapping> cutlass_sm80_candidates(const MmaKind& kind);

}  // namespace stcsim
