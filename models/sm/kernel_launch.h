// Everything an SM needs to run the CTAs of one kernel: the op, its mapping, where
// its tensors live, and per-warp costs derived once at launch (not per k-tile).
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/gemm_op.h"
#include "models/mapping/kernel_mapping.h"
#include "models/smem/i_shared_memory.h"

namespace stcsim {

enum class KernelKind { Gemm, SplitKReduce };

struct CtaTask {
  int tile_m = 0, tile_n = 0, split = 0;
  std::int64_t k_begin = 0, k_end = 0;
};

struct KernelLaunch {
  KernelKind kind = KernelKind::Gemm;
  GemmOp op;
  KernelMapping map;
  int ctas_per_sm = 1;
  std::uint64_t a_base = 0, b_base = 0, c_base = 0, workspace_base = 0;
  std::vector<CtaTask> ctas;  // in launch (rasterization) order
  int splits = 1;             // non-empty K slices (partials the reduction reads)

  // Derived at launch:
  int mma_per_warp_ksub = 0;  // (warp_m / mma m) * (warp_n / mma n)
  int ksub_bytes = 0;         // bytes of K per mma instruction row (mma k * input bytes)
  std::vector<std::vector<int>> wavefronts;  // [warp][k-sub within a k-tile]
};

// Build the GEMM kernel (and its CTAs in swizzled launch order) for `op` under `map`.
KernelLaunch make_gemm_kernel(const GemmOp& op, const KernelMapping& map, int ctas_per_sm,
                              const ISharedMemory& smem, std::uint64_t a_base, std::uint64_t b_base,
                              std::uint64_t c_base, std::uint64_t workspace_base);

// The split-K reduction kernel that follows a GEMM kernel with split_k > 1.
KernelLaunch make_reduce_kernel(const KernelLaunch& gemm);

// Shared-memory wavefronts of every ldmatrix phase a warp issues per k-sub, from
// the real byte addresses of its fragments under the mapping's layout.
std::vector<std::vector<int>> ldmatrix_wavefronts(const KernelMapping& m, Dtype d,
                                                  const ISharedMemory& smem);

// Byte offset in shared memory of 16-byte chunk `chunk` of row `row` of a tile whose
// rows hold `row_bytes` bytes, under `layout`.
std::uint32_t smem_offset(SmemLayout layout, int row, int chunk, int row_bytes);

}  // namespace stcsim
