// Dense GEMM: D = A B^T, A [Mk, K] and B [Nk, K] f16, K contiguous; mma.sync m16n8k16,
// ldmatrix, cp.async multistage (dense_mainloop.cuh), epilogue through shared memory.
#include "validation/cuda/dense_mainloop.cuh"

namespace stcsim::validation {
namespace {

// Consecutive k-tiles of the CTA's A rows and B rows.
template <int CK>
struct DenseSource {
  const char *a0, *b0;
  std::size_t lda_bytes, ldb_bytes;
  __device__ const char* a(int kt) const { return a0 + std::size_t(kt) * CK * 2; }
  __device__ const char* b(int kt) const { return b0 + std::size_t(kt) * CK * 2; }
};

template <int CM, int CN, int CK, int WM, int WN, int S>
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
  Loop::run(smem, p.k / CK, src, acc, wm0, wn0);
  store_tile<CM, CN, Loop::kMI, Loop::kNI, Loop::kThreads>(acc, smem, wm0, wn0, cta, p);
}

}  // namespace

#define STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, s) \
  KernelInstance<dense_gemm<cm, cn, ck, wm, wn, s>, GemmKernel::Dense, cm, cn, ck, wm, wn, s>

cudaError_t launch_dense(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, st)::launch(g, buf, s);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

cudaError_t resources_dense(const GemmLaunch& g, KernelResources* out) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, st)::resources(g, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
