// 2:4 sparse GEMM: D = A B^T with A 2:4-sparse along K, on mma.sp::ordered_metadata
// m16n8k32. Per stage, shared memory holds the A tile's kept values (cta_m rows of
// cta_k/2 halves, swizzled), its metadata block (cta_m/16 x cta_k/32 blocks of 16 words,
// linear, as pack_sp24 lays it out per k-tile) and the B tile. Per 32-wide k-sub, a warp
// loads each 16-row A fragment with one ldmatrix.x4 (the compressed 16x16 tile sits in
// the registers exactly as a dense A fragment, models/sparse/mma_sp_layout.h), one
// metadata word per lane, and for each 8-column B fragment one ldmatrix.x4 (k 0-31).
#include "validation/cuda/cta_tile.cuh"

namespace stcsim::validation {
namespace {

template <int CM, int CN, int CK, int WM, int WN, int S>
__global__ void __launch_bounds__((CM / WM) * (CN / WN) * 32) sp24_gemm(GemmParams p) {
  constexpr int kThreads = (CM / WM) * (CN / WN) * 32, kMI = WM / 16, kNI = WN / 8;
  constexpr int kARow = CK, kBRow = CK * 2;  // bytes per row: K/2 kept halves; K halves
  constexpr int kABytes = stage_a_bytes(GemmKernel::Sparse24, CM, CK);
  constexpr int kMetaBytes = stage_meta_bytes(GemmKernel::Sparse24, CM, CK);
  constexpr int kStageBytes = stage_bytes(GemmKernel::Sparse24, CM, CN, CK);
  static_assert(
      CM % WM == 0 && CN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && CK % 32 == 0 && S >= 2,
      "tile shape");
  extern __shared__ __align__(128) char smem[];
  const CtaCoord cta = rasterize(int(blockIdx.x), p.m / CM, p.n / CN, p.swizzle);
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int wm0 = warp_row0(warp, CM, WM), wn0 = warp_col0(warp, CM, WM, WN);
  const int ktiles = p.k / CK;
  const char* a0 = p.a + std::size_t(cta.tm) * CM * (p.k / 2) * 2;
  const char* meta_row = p.a_meta + meta_block_offset(cta.tm, 0, ktiles, CM, CK);
  const char* b0 = p.b + std::size_t(cta.tn) * CN * p.k * 2;
  const std::uint32_t base = smem_addr(smem);
  auto load = [&](int kt) {
    const std::uint32_t st = base + (kt % S) * kStageBytes;
    load_tile_async<CM, kARow, kThreads>(st, a0 + std::size_t(kt) * kARow, std::size_t(p.k));
    load_linear_async<kMetaBytes, kThreads>(st + kABytes, meta_row + std::size_t(kt) * kMetaBytes);
    load_tile_async<CN, kBRow, kThreads>(st + kABytes + kMetaBytes, b0 + std::size_t(kt) * kBRow,
                                         std::size_t(p.k) * 2);
  };
  float acc[kMI][kNI][4] = {};
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < ktiles) load(s);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait<S - 2>();
    __syncthreads();
    if (kt + S - 1 < ktiles) load(kt + S - 1);
    cp_async_commit();
    const std::uint32_t sa = base + (kt % S) * kStageBytes, sb = sa + kABytes + kMetaBytes;
    const std::uint32_t* meta =
        reinterpret_cast<const std::uint32_t*>(smem + (kt % S) * kStageBytes + kABytes);
#pragma unroll 1  // k-subs rolled (2 at cta_k 64): fewer live addresses, no register spills
    for (int ks = 0; ks < CK / 32; ++ks) {
      std::uint32_t af[kMI][4], e[kMI];
#pragma unroll
      for (int i = 0; i < kMI; ++i) {
        ldmatrix_x4(
            af[i], sa + swizzled_offset(a_ldm_row(lane, wm0, i), a_ldm_chunk(lane, ks), kARow, CM));
        e[i] = meta[meta_word(lane, wm0 / 16 + i, ks, CK / 32)];
      }
#pragma unroll
      for (int j = 0; j < kNI; ++j) {
        std::uint32_t bf[4];
        ldmatrix_x4(bf, sb + swizzled_offset(b32_ldm_row(lane, wn0, j), b32_ldm_chunk(lane, ks),
                                             kBRow, CN));
#pragma unroll
        for (int i = 0; i < kMI; ++i) mma_sp_m16n8k32(acc[i][j], af[i], bf, e[i]);
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();
  store_tile<CM, CN, kMI, kNI, kThreads>(acc, smem, wm0, wn0, cta, p);
}

}  // namespace

#define STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, s) \
  KernelInstance<sp24_gemm<cm, cn, ck, wm, wn, s>, GemmKernel::Sparse24, cm, cn, ck, wm, wn, s>

cudaError_t launch_sp24(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, st)::launch(g, buf, s);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

cudaError_t resources_sp24(const GemmLaunch& g, KernelResources* out) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, st)::resources(g, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
