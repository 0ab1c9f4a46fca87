// The dense GEMM kernel, D = A B^T with A [Mk, K] and B [Nk, K] f16, K contiguous:
// mma.sync m16n8k16, ldmatrix, cp.async multistage (dense_mainloop.cuh), epilogue through
// shared memory. gemm_dense.cu launches it whole; the mainloop-anatomy microbenchmark
// (validation/ubench/mainloop_bench.cu) with parts of its mainloop left out (P).
#pragma once
#include "validation/cuda/dense_mainloop.cuh"

namespace stcsim::validation {

// Consecutive k-tiles of the CTA's A rows and B rows.
template <int CK>
struct DenseSource {
  const char *a0, *b0;
  std::size_t lda_bytes, ldb_bytes;
  __device__ const char* a(int kt) const { return a0 + std::size_t(kt) * CK * 2; }
  __device__ const char* b(int kt) const { return b0 + std::size_t(kt) * CK * 2; }
};

template <int CM, int CN, int CK, int WM, int WN, int S, unsigned P = kAllParts>
__global__ void __launch_bounds__((CM / WM) * (CN / WN) * 32) dense_gemm(GemmParams p) {
  extern __shared__ __align__(128) char smem[];
  using Loop = DenseMainloop<CM, CN, CK, WM, WN, S>;
  const CtaCoord cta = rasterize(int(blockIdx.x), p.m / CM, p.n / CN, p.swizzle);
  const int warp = int(threadIdx.x) / 32;
  const int wm0 = warp_row0(warp, CM, WM), wn0 = warp_col0(warp, CM, WM, WN);
  const DenseSource<CK> src{p.a + std::size_t(cta.tm) * CM * p.k * 2,
                            p.b + std::size_t(cta.tn) * CN * p.k * 2, std::size_t(p.k) * 2,
                            std::size_t(p.k) * 2};
  float acc[Loop::kMI][Loop::kNI][4] = {};
  stamp_cta_phase(p.cta_phases, 1);
  Loop::template run<P>(smem, p.k / CK, src, acc, wm0, wn0, p.cta_phases);
  stamp_cta_phase(p.cta_phases, 3);
  store_tile<CM, CN, Loop::kMI, Loop::kNI, Loop::kThreads>(acc, smem, wm0, wn0, cta, p);
  stamp_cta_end(p.cta_phases);
}

}  // namespace stcsim::validation
