// Tile geometry shared by the CUDA kernels (device code) and the host: the CTA/warp
// tiles the kernels are compiled for, their shared-memory footprint, and the
// "swizzled" shared-memory layout. Plain C++ (usable without nvcc) so the harness, the
// tests and the kernels agree on every number.
//
// The tile parameters are the simulator's mapping parameters (docs/mapping.md), so
// `stcsim run -p mapping.cta_m=... -p mapping.stages=...` runs exactly a kernel's
// schedule. The list is a subset of the simulator chooser's candidate table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/smem_swizzle.h"

#if defined(__CUDACC__)
#define STCSIM_HD __host__ __device__
#else
#define STCSIM_HD
#endif

namespace stcsim::validation {

// X(cta_m, cta_n, cta_k, warp_m, warp_n, stages): the instantiated kernel tiles, in the
// order the harness prefers them (largest first). cta_k is in logical (dense) K elements
// for every kernel, as in the simulator; warp_n must be a multiple of 16.
#define STCSIM_VALIDATION_TILES(X) \
  X(256, 128, 64, 64, 64, 3)       \
  X(128, 128, 64, 64, 64, 4)       \
  X(128, 64, 64, 64, 32, 4)        \
  X(64, 64, 64, 32, 32, 6)

// Tiles compiled for the BSR kernel only: 32x32 blocks (its blocks are cta_m x cta_k), the
// block size the campaign times and the PyTorch BSR baseline uses; too small a tile to be
// worth offering the dense and 2:4 kernels.
#define STCSIM_BSR_ONLY_TILES(X) X(32, 64, 32, 32, 32, 4)
#define STCSIM_BSR_TILES(X) STCSIM_VALIDATION_TILES(X) STCSIM_BSR_ONLY_TILES(X)

struct KernelTile {
  int cta_m = 0, cta_n = 0, cta_k = 0, warp_m = 0, warp_n = 0, stages = 0;

  int warps() const { return (cta_m / warp_m) * (cta_n / warp_n); }
  int threads() const { return warps() * 32; }
  bool operator==(const KernelTile& o) const {
    return cta_m == o.cta_m && cta_n == o.cta_n && cta_k == o.cta_k && warp_m == o.warp_m &&
           warp_n == o.warp_n && stages == o.stages;
  }
  // "256x128x64/64x64 s3", as `stcsim run` prints a mapping.
  std::string str() const;
};

// The tiles in STCSIM_VALIDATION_TILES order.
std::vector<KernelTile> compiled_tiles();
// Parses "CMxCNxCK/WMxWN/sS" (e.g. "128x128x64/64x64/s4"); throws InputError unless it
// is one of compiled_tiles().
KernelTile parse_tile(const std::string& text);

enum class GemmKernel { Dense, Sparse24, Bsr };
const char* kernel_name(GemmKernel k);  // "stcsim_dense", "stcsim_sp24", "stcsim_bsr"
// The tiles compiled for one kernel: compiled_tiles(), plus STCSIM_BSR_ONLY_TILES for BSR.
std::vector<KernelTile> compiled_tiles(GemmKernel k);

// Bytes of one pipeline stage in shared memory: the A tile (for 2:4, the kept values,
// 1 byte per logical k per row, then the metadata, 4 bits per kept pair of 4), then B.
STCSIM_HD constexpr int stage_a_bytes(GemmKernel k, int cta_m, int cta_k) {
  return k == GemmKernel::Sparse24 ? cta_m * cta_k : cta_m * cta_k * 2;
}
STCSIM_HD constexpr int stage_meta_bytes(GemmKernel k, int cta_m, int cta_k) {
  return k == GemmKernel::Sparse24 ? cta_m * cta_k / 8 : 0;
}
STCSIM_HD constexpr int stage_b_bytes(int cta_n, int cta_k) { return cta_n * cta_k * 2; }
STCSIM_HD constexpr int stage_bytes(GemmKernel k, int cta_m, int cta_n, int cta_k) {
  return stage_a_bytes(k, cta_m, cta_k) + stage_meta_bytes(k, cta_m, cta_k) +
         stage_b_bytes(cta_n, cta_k);
}
// The epilogue stages the CTA's output tile through shared memory (rows padded by 16
// bytes) before full-width stores; `out_bytes` is 4 (fp32) or 2 (fp16).
STCSIM_HD constexpr int epilogue_bytes(int cta_m, int cta_n, int out_bytes) {
  return (cta_m > cta_n ? cta_m : cta_n) * ((cta_m > cta_n ? cta_n : cta_m) * out_bytes + 16);
}
// Dynamic shared memory a kernel asks for: the pipeline or the epilogue, whichever is larger.
STCSIM_HD constexpr int kernel_smem_bytes(GemmKernel k, int cta_m, int cta_n, int cta_k, int stages,
                                          int out_bytes) {
  return stages * stage_bytes(k, cta_m, cta_n, cta_k) > epilogue_bytes(cta_m, cta_n, out_bytes)
             ? stages * stage_bytes(k, cta_m, cta_n, cta_k)
             : epilogue_bytes(cta_m, cta_n, out_bytes);
}

// The simulator's "swizzled" layout, from its one home (models/common/smem_swizzle.h);
// tests/validation checks the kernels' addressing against the simulator's smem_offset.
STCSIM_HD constexpr std::uint32_t swizzled_offset(int row, int chunk, int row_bytes,
                                                  int tile_rows) {
  return swizzled_smem_offset(row, chunk, row_bytes, tile_rows);
}

}  // namespace stcsim::validation
