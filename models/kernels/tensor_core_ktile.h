// One k-tile of a tensor-core mainloop: per k-sub, every warp's ldmatrix fragment reads
// (double-buffered behind the previous k-sub's mma; B single-buffered, after the previous
// k-sub's last mma, where the mapping says so), the stage's cp.async fill charged
// to the shared-memory port in slices, and each sub-core's warps issuing their mma.
// Shared by the kernels whose warps run mma.sync / mma.sp from shared memory.
#pragma once
#include <vector>

#include "models/common/mma_kind.h"
#include "models/kernels/smem_tile_layout.h"
#include "models/mapping/kernel_mapping.h"
#include "models/sm/sm_context.h"
#include "models/sm/stall_counters.h"
#include "models/sm/warp_scheduler.h"
#include "models/smem/i_shared_memory.h"

namespace stcsim {

// A launch's per-warp work, derived once from its mapping (not per k-tile).
struct TensorCoreWarps {
  MmaKind mma;                // the instruction the warps issue
  int mma_per_warp_ksub = 0;  // accumulator tiles: (warp_m / mma m) * (warp_n / mma n)
  MmaOrder order;             // the warp tile's issue order (KernelMapping::mma_order)
  // [warp][k-sub within a k-tile] ldmatrix wavefronts of A (+ metadata) and of B
  std::vector<std::vector<FragmentReads>> wavefronts;
  int warps = 0;
  // Bytes of fragments one warp's loads bring into its registers a k-sub: A, B and, for a
  // sparse kind, each A fragment's metadata register (32 bits a lane, though the lanes of a
  // pair hold the same word: the mma.sp reads the bits it uses, the load writes them all).
  double fragment_bytes = 0;
  int b_buffers = 2;  // KernelMapping::b_fragment_buffers: 1 reloads B after its last mma
  int b_columns = 1;  // the warp tile's mma columns (warp_n / mma n): B fragments a k-sub
  // With a later fragment group (LoopInstructions::ksub_rest_from, two B buffers): the share
  // of a k-sub's B wavefronts the first group holds (the columns of the mma before
  // rest_from, issued by columns; all of B otherwise).
  double rest_first_b_share = 1;
  unsigned parts = kMainloopAll;   // KernelMapping::mainloop_parts
  bool sync_at_ktile_end = false;  // KernelMapping::barrier_point "ktile_end"
  LoopInstructions loop;           // KernelMapping::loop: preludes on the issue port

  TensorCoreWarps() = default;
  TensorCoreWarps(const KernelMapping& map, const MmaKind& kind, const ISharedMemory& smem);
  std::vector<WarpState> fresh_warps() const;  // a new CTA's warps, accumulators ready
};

// Compute `k_elems` of K on `warps` (the CTA in resident slot `slot`) from `barrier`;
// raises barrier_ready to the first mma of the last k-sub (the cycle after the last mma,
// when t.sync_at_ktile_end) and mma_done to the last result. Each warp's prelude
// instructions (t.loop) take its sub-core's issue port (sm.issue) before its fragment loads.
// `fill_bytes`: the stage's data written into shared memory, in slices behind each k-sub's
// fragment reads (CUTLASS's order); where the copies are in the prelude (the harness's),
// `copy_bytes`, the cp.async this k-tile issues, take the port ahead of its reads instead.
// Without all of t.parts (the mainloop-anatomy benchmark): no barrier, each warp starts the
// k-tile from its own last k-sub and barrier_ready is the earliest warp's; no fragments,
// they are loaded at the CTA's first k-sub only (`cause` CtaBoundary) and reused; no mma,
// each k-sub's fragments are consumed by one ALU instruction as they land.
void compute_tensor_core_ktile(SmContext& sm, const TensorCoreWarps& t, int slot,
                               std::vector<WarpState>& warps, int k_elems, Cycle barrier,
                               StallCause cause, double fill_bytes, double copy_bytes,
                               Cycle& barrier_ready, Cycle& mma_done);

}  // namespace stcsim
