// Host entry points of the validation kernels (validation/cuda/*.cu). Every kernel
// computes D[Mk, Nk] = A[Mk, K] * B[Nk, K]^T with f16 inputs and f32 accumulation, K
// contiguous in both operands ("TN"), and writes D (transpose_out = false) or D^T
// (true) as fp32 or fp16 (round to nearest).
//
// - Dense:    A and B dense (mma.sync m16n8k16, ldmatrix, cp.async multistage).
// - Sparse24: A 2:4-sparse: `a` holds the kept values (Mk x K/2 halves, row-major, as
//             sparse::compress gives them) and `a_meta` the metadata words in the order
//             pack_sp24 (validation/harness/sparse_pack.h) writes for this tile
//             (mma.sp::ordered_metadata m16n8k32).
// - Bsr:      A block-sparse with blocks of cta_m x cta_k: `a` is sparse::Bsr values,
//             `bsr_row_ptr` / `bsr_col_idx` its index arrays; dense mma in kept blocks.
//
// The simulator runs sparse weights as the kernel's A (docs/sparse.md): for y = x W^T
// the harness passes A = W, B = x, Mk = N, Nk = M and transpose_out = true, so y lands
// in its own [M, N] layout.
#pragma once
#include <cuda_runtime_api.h>

#include "validation/cuda/tile_geometry.h"

namespace stcsim::validation {

struct GemmLaunch {
  GemmKernel kind = GemmKernel::Dense;
  KernelTile tile;
  int m = 0, n = 0, k = 0;  // Mk, Nk, K of the kernel's problem
  int swizzle = 1;          // N-tiles launched together (the simulator's mapping.swizzle)
  bool transpose_out = false;
  bool out_f32 = true;
};

struct GemmBuffers {
  const void* a = nullptr;
  const void* a_meta = nullptr;  // Sparse24
  const int* bsr_row_ptr = nullptr;
  const int* bsr_col_idx = nullptr;  // Bsr
  const void* b = nullptr;
  void* d = nullptr;
  // The cta_phases benchmark (validation/ubench/mainloop_bench.cu): when set, each CTA's
  // thread 0 writes kCtaPhaseWords at [blockIdx.x * kCtaPhaseWords]: its SM, then clock64
  // at its start, after the prologue's wait (kernels whose loop waits once; 0 otherwise),
  // after the mainloop and after the epilogue's stores. Null in every GEMM the suites time.
  long long* cta_phases = nullptr;
};
constexpr int kCtaPhaseWords = 5;

// cudaErrorInvalidValue when Mk, Nk, K are not multiples of the tile or the tile is not
// compiled for the kind; otherwise the launch's error (cudaGetLastError).
cudaError_t launch_gemm(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t stream);

struct KernelResources {
  int registers = 0;    // per thread
  int smem_bytes = 0;   // dynamic shared memory per CTA
  int ctas_per_sm = 0;  // occupancy the runtime reports
  int threads = 0;
};
cudaError_t kernel_resources(const GemmLaunch& g, KernelResources* out);

// Which of Mk, Nk, K breaks the tile ("" when the problem fits).
const char* tile_mismatch(const GemmLaunch& g);

// One entry per kind, in validation/cuda/gemm_*.cu.
cudaError_t launch_dense(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s);
cudaError_t launch_sp24(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s);
cudaError_t launch_bsr(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s);
cudaError_t resources_dense(const GemmLaunch& g, KernelResources* out);
cudaError_t resources_sp24(const GemmLaunch& g, KernelResources* out);
cudaError_t resources_bsr(const GemmLaunch& g, KernelResources* out);

}  // namespace stcsim::validation
