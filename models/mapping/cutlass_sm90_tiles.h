// The tile shapes, cluster shapes and kernel schedules CUTLASS's kernel generator
// instantiates for sm90 (the persistent TMA warp-specialized GEMMs its library and
// profiler choose among), the candidates of `mapping.policy: cutlass_sm90`.
// Source: NVIDIA/cutlass v4.7.0-6-g7107b05 (commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4),
// python/cutlass_library/generator.py: GenerateSM90_TensorOp_16b_WGMMA_gemm,
// GenerateSM90_SparseTensorOp_16b_WGMMA_gemm, GenerateSM90_TensorOp_tf32_WGMMA_gemm,
// GenerateSM90_SparseTensorOp_tf32_WGMMA_gemm, GenerateSM90_TensorOp_int8_WGMMA_gemm,
// GenerateSM90_SparseTensorOp_int8_WGMMA_gemm, GenerateSM90_TensorOp_fp8_WGMMA_gemm,
// GenerateSM90_SparseTensorOp_fp8_WGMMA_gemm; their tiles come from
// sm90_utils.py generate_tile_descriptions_sm90 (wgmma shape x SM90_MMA_MULTIPLIERS,
// clusters SM90_CLUSTER_SIZES, sm90_shapes.py) and their schedules from get_valid_schedules.
// The lists are the ones each function's `default_level` gives (131 for 16-bit, 121 for
// tf32 and fp8, 111 for int8: what a build with a kernel filter, e.g.
// CUTLASS_LIBRARY_KERNELS=cutlass3x_sm90*, instantiates), read by running those functions
// on a Manifest for sm_90a with CUDA 12.8. A build without a filter keeps a subset
// (pruned_level): 16-bit and int8 only the 128x128 tile, tf32 64x128, 128x128 and 256x128.
#pragma once
#include <string>
#include <vector>

#include "models/common/mma_kind.h"

namespace stcsim {

struct CutlassSm90Entry {
  int cta_m = 0, cta_n = 0;  // TileShape M, N
  int cta_k = 0;  // TileShape K, in elements of the problem's K (the dense K for 2:4 and 1:2)
  int cluster_m = 1, cluster_n = 1;  // ClusterShape M, N (K is always 1)
  std::string schedule;              // "cooperative" or "pingpong"
  // fp8's lists stamp ping-pong out only in its FP8FastAccum variant (the fast
  // accumulation is not modelled: the entry runs as any ping-pong).
  bool fp8_fast_accum_pingpong = false;
  // CUTLASS's name of the schedule: KernelTmaWarpSpecializedCooperative / ...Pingpong
  // (...PingpongFP8FastAccum for fp8).
  std::string kernel_schedule() const;
  std::string describe() const;  // "128x256x64 cluster 2x1x1 KernelTmaWarpSpecializedCooperative"
};

// Every (tile, cluster, persistent TMA schedule) CUTLASS instantiates for `kind`. The
// non-persistent KernelTmaWarpSpecialized, KernelScheduleAuto (which resolves to one of
// these) and the stream-K tile scheduler are instantiated too but not listed: the
// warp-specialized kernel models neither. InputError for a kind with no sm90 list here.
std::vector<CutlassSm90Entry> cutlass_sm90_entries(const MmaKind& kind);

}  // namespace stcsim
