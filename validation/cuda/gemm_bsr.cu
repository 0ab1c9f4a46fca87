// Block-sparse GEMM: D = A B^T with A in BSR (sparse::Bsr) of cta_m x cta_k blocks, so a
// CTA's block row is one BSR block row and its k-tiles are the kept blocks: each kept
// block (contiguous, row-major) is the A tile, the B tile is the B columns of that
// block's column. Dense mma.sync inside kept blocks (dense_mainloop.cuh); pruned blocks
// cost nothing.
#include "validation/cuda/dense_mainloop.cuh"

namespace stcsim::validation {
namespace {

template <int CM, int CK>
struct BsrSource {
  const char *values, *b0;
  const int* cols;  // block columns of this block row's kept blocks
  std::size_t lda_bytes, ldb_bytes;
  __device__ const char* a(int kt) const { return values + std::size_t(kt) * CM * CK * 2; }
  __device__ const char* b(int kt) const { return b0 + std::size_t(cols[kt]) * CK * 2; }
};

template <int CM, int CN, int CK, int WM, int WN, int S>
__global__ void __launch_bounds__((CM / WM) * (CN / WN) * 32) bsr_gemm(GemmParams p) {
  extern __shared__ __align__(128) char smem[];
  using Loop = DenseMainloop<CM, CN, CK, WM, WN, S>;
  const CtaCoord cta = rasterize(int(blockIdx.x), p.m / CM, p.n / CN, p.swizzle);
  const int warp = int(threadIdx.x) / 32;
  const int wm0 = warp_row0(warp, CM, WM), wn0 = warp_col0(warp, CM, WM, WN);
  const int first = p.row_ptr[cta.tm], kept = p.row_ptr[cta.tm + 1] - first;
  const BsrSource<CM, CK> src{p.a + std::size_t(first) * CM * CK * 2,
                              p.b + std::size_t(cta.tn) * CN * p.k * 2, p.col_idx + first,
                              std::size_t(CK) * 2, std::size_t(p.k) * 2};
  float acc[Loop::kMI][Loop::kNI][4] = {};
  Loop::run(smem, kept, src, acc, wm0, wn0);
  store_tile<CM, CN, Loop::kMI, Loop::kNI, Loop::kThreads>(acc, smem, wm0, wn0, cta, p);
}

}  // namespace

#define STCSIM_BSR_INSTANCE(cm, cn, ck, wm, wn, s) \
  KernelInstance<bsr_gemm<cm, cn, ck, wm, wn, s>, GemmKernel::Bsr, cm, cn, ck, wm, wn, s>

cudaError_t launch_bsr(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_BSR_INSTANCE(cm, cn, ck, wm, wn, st)::launch(g, buf, s);
  STCSIM_BSR_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

cudaError_t resources_bsr(const GemmLaunch& g, KernelResources* out) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_BSR_INSTANCE(cm, cn, ck, wm, wn, st)::resources(g, out);
  STCSIM_BSR_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
