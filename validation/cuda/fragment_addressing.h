// Where each lane of the validation kernels reads and writes: the ldmatrix row addresses
// of the A, B and metadata fragments, the accumulator elements, the CTA launch order and
// the epilogue's staging. Host/device functions shared by the kernels and by the CPU
// emulation test (tests/validation/test_kernel_emulation.cpp), which replays the
// kernels through the functional mma model and checks the result bit for bit.
//
// ldmatrix.x4: lanes 8j..8j+7 give the rows of 8x8 matrix j (16 bytes each); register j of
// lane t then holds row t/4, elements 2(t%4), 2(t%4)+1 of matrix j.
#pragma once
#include <cstddef>

#include "validation/cuda/tile_geometry.h"

namespace stcsim::validation {

// Warp w's origin in the CTA tile (warps M-fastest, as the simulator places them).
STCSIM_HD constexpr int warp_row0(int warp, int cta_m, int warp_m) {
  return (warp % (cta_m / warp_m)) * warp_m;
}
STCSIM_HD constexpr int warp_col0(int warp, int cta_m, int warp_m, int warp_n) {
  return (warp / (cta_m / warp_m)) * warp_n;
}

// A fragment of 16-row mma tile i at k-sub ks (16 halves dense; the 16 kept halves of a
// 32-wide 2:4 k-sub, laid out as a dense A fragment): matrices rows 0-7 / 8-15 x
// chunks 0 / 1, giving registers a0..a3 of mma.sync m16n8k16 / mma.sp m16n8k32.
STCSIM_HD constexpr int a_ldm_row(int lane, int wm0, int i) {
  return wm0 + 16 * i + lane % 8 + 8 * ((lane / 8) % 2);
}
STCSIM_HD constexpr int a_ldm_chunk(int lane, int ks) { return 2 * ks + lane / 16; }

// Dense B fragments of 8-column mma tiles j and j+1 at k-sub ks (16 wide): matrices
// (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15) -> b0, b1 of tile j,
// then of tile j+1.
STCSIM_HD constexpr int b16_ldm_row(int lane, int wn0, int j) {
  return wn0 + 8 * j + lane % 8 + 8 * (lane / 16);
}
STCSIM_HD constexpr int b16_ldm_chunk(int lane, int ks) { return 2 * ks + (lane / 8) % 2; }

// 2:4 B fragment of 8-column tile j at k-sub ks (32 wide): matrices k 0-7 .. 24-31 -> b0..b3.
STCSIM_HD constexpr int b32_ldm_row(int lane, int wn0, int j) { return wn0 + 8 * j + lane % 8; }
STCSIM_HD constexpr int b32_ldm_chunk(int lane, int ks) { return 4 * ks + lane / 8; }

// 2:4 metadata: the word (of a stage's metadata block, cta_m/16 x cta_k/32 blocks of 16)
// lane reads for 16-row tile `mtile` of the CTA at k-sub ks. Lanes 4g and 4g+1 supply the
// register under selector 0 (rows g and g+8, groups 0-3 and 4-7); 4g+2 and 4g+3 repeat
// them (ignored by mma.sp).
STCSIM_HD constexpr int meta_word(int lane, int mtile, int ks, int ksubs) {
  return (mtile * ksubs + ks) * 16 + 2 * (lane / 4) + lane % 2;
}
// Byte offset of CTA row block bm's metadata for k-tile kt in the global metadata array
// (validation/harness/sparse_pack.h writes it; each k-tile's block is contiguous).
STCSIM_HD constexpr std::size_t meta_block_offset(int bm, int kt, int ktiles, int cta_m,
                                                  int cta_k) {
  return (std::size_t(bm) * ktiles + kt) *
         std::size_t(stage_meta_bytes(GemmKernel::Sparse24, cta_m, cta_k));
}

// Accumulator register r (0..3) of mma tile (i, j): its row and column in the CTA tile.
STCSIM_HD constexpr int acc_row(int lane, int wm0, int i, int r) {
  return wm0 + 16 * i + lane / 4 + 8 * (r / 2);
}
STCSIM_HD constexpr int acc_col(int lane, int wn0, int j, int r) {
  return wn0 + 8 * j + 2 * (lane % 4) + r % 2;
}

// CTA `linear` in the simulator's launch order (models/sm/kernel_launch.cpp): for each
// group of `swizzle` adjacent N-tiles, for each M-tile, the group's N-tiles.
struct CtaCoord {
  int tm, tn;
};
STCSIM_HD constexpr CtaCoord rasterize(int linear, int tiles_m, int tiles_n, int swizzle) {
  const int per_group = tiles_m * swizzle;
  const int n0 = (linear / per_group) * swizzle;
  const int within = linear % per_group;
  const int width = swizzle < tiles_n - n0 ? swizzle : tiles_n - n0;
  return CtaCoord{within / width, n0 + within % width};
}

// Epilogue staging: the CTA's output tile in shared memory, `out_rows` x `out_cols`
// elements of out_bytes, rows padded by 16 bytes; D^T (transposed) swaps rows and columns.
struct EpilogueTile {
  int rows, cols, out_bytes;
  STCSIM_HD constexpr int stride() const { return cols * out_bytes + 16; }
  STCSIM_HD constexpr int chunks_per_row() const { return cols * out_bytes / 16; }
};
STCSIM_HD constexpr EpilogueTile epilogue_tile(int cta_m, int cta_n, bool transposed,
                                               int out_bytes) {
  return EpilogueTile{transposed ? cta_n : cta_m, transposed ? cta_m : cta_n, out_bytes};
}
// Byte offset in shared memory of accumulator element (r, c) of the CTA tile.
STCSIM_HD constexpr int epilogue_offset(const EpilogueTile& e, int r, int c, bool transposed) {
  return transposed ? c * e.stride() + r * e.out_bytes : r * e.stride() + c * e.out_bytes;
}
// Byte offset in global memory of 16-byte chunk `chunk` of staged row `row` of CTA (tm, tn):
// D [m, n] row-major, or D^T [n, m].
STCSIM_HD constexpr std::size_t epilogue_global_offset(const EpilogueTile& e, int row, int chunk,
                                                       int tm, int tn, int cta_m, int cta_n, int m,
                                                       int n, bool transposed) {
  return std::size_t((transposed ? tn * cta_n : tm * cta_m) + row) *
             std::size_t(transposed ? m : n) * e.out_bytes +
         std::size_t(transposed ? tm * cta_m : tn * cta_n) * e.out_bytes + std::size_t(chunk) * 16;
}

}  // namespace stcsim::validation
