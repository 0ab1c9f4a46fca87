// Host entry of the CSR SpMM kernel (csr_spmm.cu): the row-split schedule the simulator's
// csr_spmm kernel runs (models/kernels/csr_plan.h; Sputnik, Gale et al. SC'20):
//   Y^T [N, M] = W [N, K] (CSR, fp16 values) x X^T [K, M] (fp16, row-major: K-major
//   activations), fp32 accumulation, Y^T stored row-major as fp32 or fp16.
// A CTA is kCsrWarps warps, one row of W each, taken in `row_order` (rows sorted by
// nonzero count, longest first: Sputnik's row swizzle) x `tile_cols` columns of X^T
// (32, 64 or 128: 1, 2 or 4 per lane, loaded as one 2-, 4- or 8-byte vector when M keeps
// them aligned, else element by element). Per stage a warp stages up to 32 of its row's
// nonzeros (values and column indices, one per lane) in shared memory, then for each
// gathers its X^T row slice and does one fp32 FMA per column, in CSR order: the host
// replays the same fmaf chain (csr_operand.h) and expects the same bits. Residues: the
// last stage of a row holds fewer than 32 nonzeros, the last column tile is predicated,
// and the last CTA's missing rows do nothing.
// The gathers are dependent: each iteration's gather sits behind the `vec` branch and
// is converted and used before the next is issued (the sm_90 PTX has each unrolled
// iteration's ld.global after the previous one's fma), so a warp has one gather in
// flight, where Sputnik loads a stage's rows into registers first. The simulator runs
// this loop with mapping.csr_gather_loop=dependent (validate sets it for stcsim_csr).
#pragma once
#include <cuda_runtime_api.h>

namespace stcsim::validation {

inline constexpr int kCsrWarps = 4;
inline constexpr int kCsrStageNnz = 32;

struct CsrSpmmLaunch {
  int n = 0, m = 0, k = 0;  // rows of W, columns of X^T (tokens), K
  int tile_cols = 128;      // 32, 64 or 128
  bool out_f32 = true;
};

struct CsrSpmmBuffers {
  const void* values = nullptr;    // fp16, nnz
  const int* col_idx = nullptr;    // nnz
  const int* row_ptr = nullptr;    // n + 1
  const int* row_order = nullptr;  // n: the rows in launch order
  const void* xt = nullptr;        // fp16 [K, M]
  void* yt = nullptr;              // fp32 or fp16 [N, M]
};

// cudaErrorInvalidValue for a tile width other than 32/64/128 or an empty problem.
cudaError_t launch_csr_spmm(const CsrSpmmLaunch& l, const CsrSpmmBuffers& b, cudaStream_t s);
// Registers per thread and CTAs per SM the runtime reports for this launch's kernel.
cudaError_t csr_spmm_resources(const CsrSpmmLaunch& l, int* registers, int* ctas_per_sm);

}  // namespace stcsim::validation
