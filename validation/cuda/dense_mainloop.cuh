// The multistage mainloop of the dense and block-sparse kernels (CUTLASS-style, as the
// simulator models it): `stages` cp.async stages of the A and B tiles in swizzled shared
// memory, one barrier per k-tile, per 16-wide k-sub ldmatrix.x4 fragment loads and the
// warp's mma.sync m16n8k16 instructions. Where the tiles come from is the Source's
// business (dense: consecutive k-tiles; BSR: the kept blocks of a block row).
#pragma once
#include "validation/cuda/cta_tile.cuh"

namespace stcsim::validation {

// The parts of the mainloop. A GEMM runs them all; the mainloop-anatomy microbenchmark
// (validation/ubench/mainloop_bench.cu) times the same loop with parts left out, to tell
// where an Ampere-style kernel's time goes on a given GPU. Without kCopy the prologue
// fills all S stages (real operands in shared memory), waits for them, and the loop
// loads nothing more; without kBarrier no wait or barrier per k-tile (only meaningful without
// kCopy); without kFragments the fragments of the first k-sub are loaded once and reused;
// without kMma the fragments are folded into the accumulators by XOR so that their loads
// stay live.
enum MainloopPart : unsigned { kCopy = 1, kBarrier = 2, kFragments = 4, kMma = 8, kAllParts = 15 };

template <int CM, int CN, int CK, int WM, int WN, int S>
struct DenseMainloop {
  static constexpr int kThreads = (CM / WM) * (CN / WN) * 32;
  static constexpr int kMI = WM / 16, kNI = WN / 8;
  static constexpr int kRowBytes = CK * 2;
  static constexpr int kABytes = CM * kRowBytes, kStageBytes = kABytes + CN * kRowBytes;
  static_assert(CM % WM == 0 && CN % WN == 0 && WM % 16 == 0 && WN % 16 == 0 && CK % 16 == 0 &&
                    S >= 2,
                "tile shape");

  // Source: a(kt) / b(kt) give the global start of k-tile kt's A and B tiles, with row
  // strides lda_bytes / ldb_bytes. P: the parts run (MainloopPart bits).
  template <unsigned P = kAllParts, typename Source>
  __device__ static void run(char* smem, int ktiles, const Source& src, float (&acc)[kMI][kNI][4],
                             int wm0, int wn0, long long* phases = nullptr) {
    const std::uint32_t base = smem_addr(smem);
    const int lane = int(threadIdx.x) % 32;
    auto load = [&](int kt) {
      const std::uint32_t st = base + (kt % S) * kStageBytes;
      load_tile_async<CM, kRowBytes, kThreads>(st, src.a(kt), src.lda_bytes);
      load_tile_async<CN, kRowBytes, kThreads>(st + kABytes, src.b(kt), src.ldb_bytes);
    };
    // One k-sub's fragments of the warp: A (kMI ldmatrix.x4) and B (kNI / 2 ldmatrix.x4).
    auto fragments = [&](std::uint32_t sa, std::uint32_t sb, int ks, std::uint32_t(&af)[kMI][4],
                         std::uint32_t(&bf)[kNI][2]) {
#pragma unroll
      for (int i = 0; i < kMI; ++i) {
        ldmatrix_x4(af[i], sa + swizzled_offset(a_ldm_row(lane, wm0, i), a_ldm_chunk(lane, ks),
                                                kRowBytes, CM));
      }
#pragma unroll
      for (int j = 0; j < kNI; j += 2) {  // tiles j and j+1
        std::uint32_t r[4];
        ldmatrix_x4(r, sb + swizzled_offset(b16_ldm_row(lane, wn0, j), b16_ldm_chunk(lane, ks),
                                            kRowBytes, CN));
        bf[j][0] = r[0];
        bf[j][1] = r[1];
        bf[j + 1][0] = r[2];
        bf[j + 1][1] = r[3];
      }
    };
    // The copies run ahead by S-1 stages; without them every stage is filled once here.
    constexpr int kPrologueStages = (P & kCopy) ? S - 1 : S;
#pragma unroll
    for (int s = 0; s < kPrologueStages; ++s) {
      if (s < ktiles) load(s);
      cp_async_commit();
    }
    std::uint32_t af[kMI][4], bf[kNI][2];
    if constexpr (!(P & kCopy) || !(P & kFragments) || !(P & kBarrier)) {  // the stages, once
      cp_async_wait<0>();
      __syncthreads();
      stamp_cta_phase(phases, 2);
    }
    if constexpr (!(P & kFragments)) fragments(base, base + kABytes, 0, af, bf);
    for (int kt = 0; kt < ktiles; ++kt) {
      if constexpr ((P & kBarrier) != 0) {
        cp_async_wait<S - 2>();
        __syncthreads();  // stage kt landed for every thread; stage kt-1 is free again
      }
      if constexpr ((P & kCopy) != 0) {
        if (kt + S - 1 < ktiles) load(kt + S - 1);
        cp_async_commit();
      }
      const std::uint32_t sa = base + (kt % S) * kStageBytes, sb = sa + kABytes;
#pragma unroll
      for (int ks = 0; ks < CK / 16; ++ks) {
        if constexpr ((P & kFragments) != 0) fragments(sa, sb, ks, af, bf);
        if constexpr ((P & kMma) != 0) {
#pragma unroll
          for (int i = 0; i < kMI; ++i)
#pragma unroll
            for (int j = 0; j < kNI; ++j) mma_m16n8k16(acc[i][j], af[i], bf[j][0], bf[j][1]);
        } else {  // every fragment register once per k-sub, so no load is dead
#pragma unroll
          for (int i = 0; i < kMI; ++i)
            acc[i][0][0] = __uint_as_float(__float_as_uint(acc[i][0][0]) ^ af[i][0] ^ af[i][1] ^
                                           af[i][2] ^ af[i][3]);
#pragma unroll
          for (int j = 0; j < kNI; ++j)
            acc[0][j][1] = __uint_as_float(__float_as_uint(acc[0][j][1]) ^ bf[j][0] ^ bf[j][1]);
        }
      }
    }
    cp_async_wait<0>();
    __syncthreads();  // shared memory is free for the epilogue
  }
};

}  // namespace stcsim::validation
