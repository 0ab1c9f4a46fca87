// Device building blocks shared by the validation kernels: kernel arguments, async tile
// copies into the swizzled shared-memory layout, the epilogue that stages the output tile
// through shared memory (transposed when the kernel's D is y^T), and the launchers.
// Lane and CTA index arithmetic lives in fragment_addressing.h.
#pragma once
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

#include "validation/cuda/fragment_addressing.h"
#include "validation/cuda/kernels.h"
#include "validation/cuda/ptx.cuh"
#include "validation/cuda/tile_geometry.h"

namespace stcsim::validation {

// Kernel arguments, passed by value.
struct GemmParams {
  const char* a;          // dense A, 2:4 kept values, or BSR block values
  const char* a_meta;     // 2:4 metadata words (pack_sp24 order)
  const int* row_ptr;     // BSR
  const int* col_idx;     // BSR
  const char* b;          // B [Nk, K] f16
  char* d;                // D [Mk, Nk] or D^T [Nk, Mk]
  long long* cta_phases;  // GemmBuffers::cta_phases (null: none kept)
  int m, n, k, swizzle;
  bool transpose_out, out_f32;
};

inline GemmParams make_params(const GemmLaunch& g, const GemmBuffers& b) {
  return GemmParams{static_cast<const char*>(b.a),
                    static_cast<const char*>(b.a_meta),
                    b.bsr_row_ptr,
                    b.bsr_col_idx,
                    static_cast<const char*>(b.b),
                    static_cast<char*>(b.d),
                    b.cta_phases,
                    g.m,
                    g.n,
                    g.k,
                    g.swizzle < 1 ? 1 : g.swizzle,
                    g.transpose_out,
                    g.out_f32};
}

// The cta_phases benchmark's stamps (GemmBuffers::cta_phases): thread 0 of the CTA writes
// word `w` of its record; the CTA's start also records its SM. Outside the k-tile loop, so
// the loop's instructions are those of the suites' kernels.
__device__ __forceinline__ void stamp_cta_phase(long long* phases, int w) {
  if (phases == nullptr || threadIdx.x != 0) return;
  long long* rec = phases + std::size_t(blockIdx.x) * kCtaPhaseWords;
  if (w == 1) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    rec[0] = sm;
  }
  rec[w] = clock64();
}

// The epilogue's stores issued by every thread, then its stamp (uniform: all or none sync).
__device__ __forceinline__ void stamp_cta_end(long long* phases) {
  if (phases == nullptr) return;
  __syncthreads();
  stamp_cta_phase(phases, 4);
}

// cp.async of a ROWS x ROW_BYTES tile (global row stride ld_bytes) into shared memory at
// `smem` in the swizzled layout; every thread of the CTA takes part.
template <int ROWS, int ROW_BYTES, int THREADS>
__device__ __forceinline__ void load_tile_async(std::uint32_t smem, const char* g,
                                                std::size_t ld_bytes) {
  constexpr int kChunks = ROW_BYTES / 16, kTotal = ROWS * kChunks;
#pragma unroll
  for (int it = 0; it < (kTotal + THREADS - 1) / THREADS; ++it) {
    const int i = it * THREADS + int(threadIdx.x);
    if (kTotal % THREADS == 0 || i < kTotal) {
      const int r = i / kChunks, c = i % kChunks;
      cp_async16(smem + swizzled_offset(r, c, ROW_BYTES, ROWS),
                 g + std::size_t(r) * ld_bytes + c * 16);
    }
  }
}

// cp.async of BYTES contiguous bytes (the 2:4 metadata block of one k-tile).
template <int BYTES, int THREADS>
__device__ __forceinline__ void load_linear_async(std::uint32_t smem, const char* g) {
  constexpr int kTotal = BYTES / 16;
#pragma unroll
  for (int it = 0; it < (kTotal + THREADS - 1) / THREADS; ++it) {
    const int i = it * THREADS + int(threadIdx.x);
    if (kTotal % THREADS == 0 || i < kTotal) cp_async16(smem + i * 16, g + i * 16);
  }
}

// Writes the CTA's accumulators (each warp's MI x NI mma tiles of 16x8 at wm0, wn0) to
// global memory: first into shared memory (as fp32 or fp16, transposed for D^T), then
// with 16-byte stores along full output rows. Shared memory must be free (the mainloop
// has drained its cp.async groups and passed a barrier).
template <int CM, int CN, int MI, int NI, int THREADS>
__device__ __forceinline__ void store_tile(const float (&acc)[MI][NI][4], char* smem, int wm0,
                                           int wn0, CtaCoord cta, const GemmParams& p) {
  const int lane = int(threadIdx.x) % 32;
  const EpilogueTile e = epilogue_tile(CM, CN, p.transpose_out, p.out_f32 ? 4 : 2);
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        char* q = smem + epilogue_offset(e, acc_row(lane, wm0, i, r), acc_col(lane, wn0, j, r),
                                         p.transpose_out);
        if (p.out_f32)
          *reinterpret_cast<float*>(q) = acc[i][j][r];
        else
          *reinterpret_cast<__half*>(q) = __float2half_rn(acc[i][j][r]);
      }
  __syncthreads();
  for (int i = int(threadIdx.x); i < e.rows * e.chunks_per_row(); i += THREADS) {
    const int row = i / e.chunks_per_row(), chunk = i % e.chunks_per_row();
    *reinterpret_cast<int4*>(p.d + epilogue_global_offset(e, row, chunk, cta.tm, cta.tn, CM, CN,
                                                          p.m, p.n, p.transpose_out)) =
        *reinterpret_cast<const int4*>(smem + row * e.stride() + chunk * 16);
  }
}

// Per-instantiation launch: raises the kernel's dynamic shared-memory limit once (to
// its fp32-output size, the larger), then launches one CTA per output tile.
template <void (*KERNEL)(GemmParams), GemmKernel KIND, int CM, int CN, int CK, int WM, int WN,
          int S>
struct KernelInstance {
  static constexpr int kThreads = (CM / WM) * (CN / WN) * 32;
  static int smem(bool out_f32) { return kernel_smem_bytes(KIND, CM, CN, CK, S, out_f32 ? 4 : 2); }
  static cudaError_t prepare() {
    static const cudaError_t e =
        cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, smem(true));
    return e;
  }
  static cudaError_t launch(const GemmLaunch& g, const GemmBuffers& b, cudaStream_t s) {
    if (cudaError_t e = prepare(); e != cudaSuccess) return e;
    const unsigned grid = unsigned((g.m / CM) * (g.n / CN));
    KERNEL<<<grid, kThreads, smem(g.out_f32), s>>>(make_params(g, b));
    return cudaGetLastError();
  }
  static cudaError_t resources(const GemmLaunch& g, KernelResources* out) {
    if (cudaError_t e = prepare(); e != cudaSuccess) return e;
    cudaFuncAttributes fa{};
    if (cudaError_t e = cudaFuncGetAttributes(&fa, KERNEL); e != cudaSuccess) return e;
    out->registers = fa.numRegs;
    out->smem_bytes = smem(g.out_f32);
    out->threads = kThreads;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->ctas_per_sm, KERNEL, kThreads,
                                                         out->smem_bytes);
  }
};

}  // namespace stcsim::validation
