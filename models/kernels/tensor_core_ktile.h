// One k-tile of a tensor-core mainloop: per k-sub, every warp's ldmatrix fragment reads
// (double-buffered behind the previous k-sub's mma), the stage's cp.async fill charged
// to the shared-memory port in slices, and each sub-core's warps issuing their mma.
// Shared by the kernels whose warps run mma.sync / mma.sp from shared memory.
#pragma once
#include <vector>

#include "models/common/mma_kind.h"
#include "models/sm/sm_context.h"
#include "models/sm/stall_counters.h"
#include "models/sm/warp_scheduler.h"

namespace stcsim {

struct TensorCoreKtile {
  const MmaKind& mma;
  int mma_per_warp_ksub;                             // accumulator tiles per warp
  const std::vector<std::vector<int>>& wavefronts;  // [warp][k-sub] ldmatrix wavefronts
};

// Compute `k_elems` of K on `warps` (the CTA in resident slot `slot`) from `barrier`;
// raises barrier_ready to the first mma of the last k-sub and mma_done to the last result.
void compute_tensor_core_ktile(SmContext& sm, const TensorCoreKtile& t, int slot, std::vector<WarpState>& warps,
                               int k_elems, Cycle barrier, StallCause cause, double fill_bytes, Cycle& barrier_ready,
                               Cycle& mma_done);

}  // namespace stcsim
