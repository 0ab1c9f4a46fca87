// Everything an SM needs to run the CTAs of one kernel: the op, its mapping, where
// its tensors live, and per-warp costs derived once at launch (not per k-tile).
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/gemm_op.h"
#include "models/mapping/kernel_mapping.h"
#include "models/sm/block_plan.h"
#include "models/sm/csr_plan.h"
#include "models/smem/i_shared_memory.h"

namespace stcsim {

enum class KernelKind { Gemm, SplitKReduce };

struct CtaTask {
  int tile_m = 0, tile_n = 0, split = 0, batch = 0;
  std::int64_t k_begin = 0, k_end = 0;
  int panel = 0;  // block-sparse: index into KernelLaunch::panels
};

struct KernelLaunch {
  KernelKind kind = KernelKind::Gemm;
  GemmOp op;        // the problem as the kernel runs it (kernel_problem of the user's op)
  MmaKind mma;      // the instruction its warps issue
  bool transposed_output = false;  // sparse weights: the kernel's D is y^T, stored as y
  KernelMapping map;
  int ctas_per_sm = 1;
  // A values, A metadata (sparse only; stored tile by tile in the order the kernel
  // reads it, as CUTLASS reorders it), B, D, split-K partials.
  std::uint64_t a_base = 0, meta_base = 0, b_base = 0, c_base = 0, workspace_base = 0;
  // Bytes from one batch's tensor to the next (grouped GEMMs run in one kernel).
  std::uint64_t a_stride = 0, meta_stride = 0, b_stride = 0, c_stride = 0, workspace_stride = 0;
  std::vector<CtaTask> ctas;  // in launch (rasterization) order
  int splits = 1;             // non-empty K slices (partials the reduction reads)
  // Block-sparse weights: per row panel, the kept blocks' k-tiles (block_plan.h); the
  // block index arrays live at index_base.
  bool block_sparse = false;
  std::vector<PanelPlan> panels;
  std::uint64_t index_base = 0;
  // CSR SpMM on CUDA cores (csr_plan.h): CtaTask::panel indexes csr_panels; W's values
  // at a_base, row_ptr then col_idx at index_base, X^T (K-major) at b_base.
  bool csr = false;
  std::vector<CsrPanel> csr_panels;
  double csr_cycles_per_nnz = 0;  // per warp (one row) per nonzero
  std::uint64_t csr_col_idx_offset = 0;  // col_idx after the whole row_ptr array

  // Derived at launch:
  int mma_per_warp_ksub = 0;  // (warp_m / mma m) * (warp_n / mma n)
  std::vector<std::vector<int>> wavefronts;  // [warp][k-sub within a k-tile]
};

// Build the GEMM kernel (and its CTAs in swizzled launch order) for `op` under `map`.
struct TensorAddresses {
  std::uint64_t a = 0, meta = 0, b = 0, c = 0, workspace = 0, index = 0;
};
// `op` is the user's GEMM; the kernel runs kernel_problem(op).
KernelLaunch make_gemm_kernel(const GemmOp& op, const KernelMapping& map, int ctas_per_sm,
                              const ISharedMemory& smem, const TensorAddresses& addr);

// The CSR SpMM kernel on CUDA cores for `op` (op.csr_cuda_cores, a 1x1 block map)
// under csr_mapping(): panels of map.cta_m rows x map.cta_n activation columns.
KernelLaunch make_csr_kernel(const GemmOp& op, const KernelMapping& map, int ctas_per_sm, int fp32_lanes,
                             const TensorAddresses& addr);

// The split-K reduction kernel that follows a GEMM kernel with split_k > 1.
KernelLaunch make_reduce_kernel(const KernelLaunch& gemm);

// Shared-memory wavefronts of every ldmatrix phase a warp issues per k-sub, from
// the real byte addresses of its fragments under the mapping's layout.
// A sparse kind adds the metadata fragment reads (conflict-free 16-byte loads).
std::vector<std::vector<int>> ldmatrix_wavefronts(const KernelMapping& m, const MmaKind& kind,
                                                  const ISharedMemory& smem);

// Byte offset in shared memory of 16-byte chunk `chunk` of row `row` of a tile of
// `tile_rows` rows holding `row_bytes` bytes each, under `layout`.
std::uint32_t smem_offset(SmemLayout layout, int row, int chunk, int row_bytes, int tile_rows);

}  // namespace stcsim
