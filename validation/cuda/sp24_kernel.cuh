// The 2:4 sparse GEMM kernel: D = A B^T with A 2:4-sparse along K, on
// mma.sp::ordered_metadata m16n8k32. Per stage, shared memory holds the A tile's kept
// values (cta_m rows of cta_k/2 halves, swizzled), its metadata block (cta_m/16 x cta_k/32
// blocks of 16 words, linear, as pack_sp24 lays it out per k-tile) and the B tile. Per
// 32-wide k-sub, a warp loads each 16-row A fragment with one ldmatrix.x4 (the compressed
// 16x16 tile sits in the registers exactly as a dense A fragment,
// models/sparse/mma_sp_layout.h), one metadata word per lane, and for each 8-column B
// fragment one ldmatrix.x4 (k 0-31), then that column's mma.sp. gemm_sp24.cu launches it
// whole; the mainloop-anatomy microbenchmark (validation/ubench/mainloop_bench.cu) with
// parts of its loop left out (P, MainloopPart: dense_mainloop.cuh says what each means;
// without kFragments the first k-sub's A, metadata and every column's B are loaded once).
#pragma once
#include "validation/cuda/dense_mainloop.cuh"

namespace stcsim::validation {

template <int CM, int CN, int CK, int WM, int WN, int S, unsigned P = kAllParts>
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
  stamp_cta_phase(p.cta_phases, 1);
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
  // One k-sub's A fragments and metadata words, and column j's B fragment, of stage st.
  auto a_fragments = [&](int st, int ks, std::uint32_t(&af)[kMI][4], std::uint32_t(&e)[kMI]) {
    const std::uint32_t sa = base + st * kStageBytes;
    const std::uint32_t* meta =
        reinterpret_cast<const std::uint32_t*>(smem + st * kStageBytes + kABytes);
#pragma unroll
    for (int i = 0; i < kMI; ++i) {
      ldmatrix_x4(af[i],
                  sa + swizzled_offset(a_ldm_row(lane, wm0, i), a_ldm_chunk(lane, ks), kARow, CM));
      e[i] = meta[meta_word(lane, wm0 / 16 + i, ks, CK / 32)];
    }
  };
  auto b_fragment = [&](int st, int ks, int j, std::uint32_t(&bf)[4]) {
    const std::uint32_t sb = base + st * kStageBytes + kABytes + kMetaBytes;
    ldmatrix_x4(
        bf, sb + swizzled_offset(b32_ldm_row(lane, wn0, j), b32_ldm_chunk(lane, ks), kBRow, CN));
  };
  // Without mma: every fragment register once per column, so no load is dead.
  auto fold = [](float& x, const std::uint32_t* r, int n) {
    std::uint32_t v = __float_as_uint(x);
    for (int q = 0; q < n; ++q) v ^= r[q];
    x = __uint_as_float(v);
  };
  float acc[kMI][kNI][4] = {};
  // The copies run ahead by S-1 stages; without them every stage is filled once here.
  constexpr int kPrologueStages = (P & kCopy) ? S - 1 : S;
#pragma unroll
  for (int s = 0; s < kPrologueStages; ++s) {
    if (s < ktiles) load(s);
    cp_async_commit();
  }
  if constexpr (!(P & kCopy) || !(P & kFragments) || !(P & kBarrier)) {  // the stages, once
    cp_async_wait<0>();
    __syncthreads();
    stamp_cta_phase(p.cta_phases, 2);
  }
  // Without kFragments: the first k-sub's fragments, all columns', loaded once and reused.
  std::uint32_t af0[kMI][4], e0[kMI], bf0[(P & kFragments) ? 1 : kNI][4];
  if constexpr (!(P & kFragments)) {
    a_fragments(0, 0, af0, e0);
#pragma unroll
    for (int j = 0; j < kNI; ++j) b_fragment(0, 0, j, bf0[j]);
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    if constexpr ((P & kBarrier) != 0) {
      cp_async_wait<S - 2>();
      __syncthreads();
    }
    if constexpr ((P & kCopy) != 0) {
      if (kt + S - 1 < ktiles) load(kt + S - 1);
      cp_async_commit();
    }
    const int st = kt % S;
#pragma unroll 1  // k-subs rolled (2 at cta_k 64): fewer live addresses, no register spills
    for (int ks = 0; ks < CK / 32; ++ks) {
      std::uint32_t af[kMI][4], e[kMI];
      if constexpr ((P & kFragments) != 0) a_fragments(st, ks, af, e);
#pragma unroll
      for (int j = 0; j < kNI; ++j) {
        std::uint32_t bf[4];
        if constexpr ((P & kFragments) != 0) b_fragment(st, ks, j, bf);
        const std::uint32_t(&a)[kMI][4] = (P & kFragments) ? af : af0;
        const std::uint32_t(&m)[kMI] = (P & kFragments) ? e : e0;
        const std::uint32_t(&b)[4] = (P & kFragments) ? bf : bf0[(P & kFragments) ? 0 : j];
        if constexpr ((P & kMma) != 0) {
#pragma unroll
          for (int i = 0; i < kMI; ++i) mma_sp_m16n8k32(acc[i][j], a[i], b, m[i]);
        } else {
          fold(acc[0][j][1], b, 4);
          if (j == 0) {
#pragma unroll
            for (int i = 0; i < kMI; ++i) {
              fold(acc[i][0][0], a[i], 4);
              fold(acc[i][0][2], &m[i], 1);
            }
          }
        }
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();
  stamp_cta_phase(p.cta_phases, 3);
  store_tile<CM, CN, kMI, kNI, kThreads>(acc, smem, wm0, wn0, cta, p);
  stamp_cta_end(p.cta_phases);
}

}  // namespace stcsim::validation
