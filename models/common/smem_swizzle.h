// The XOR-swizzled shared-memory tile layout (CUTLASS's Swizzle<3,4,3> on 16-byte
// chunks), in one place for the simulator (models/kernels/smem_tile_layout.cpp) and the
// CUDA kernels that are measured against it (validation/cuda), which include it on the
// host and the device alike. Plain C++: no SystemC, no library.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define STCSIM_SWIZZLE_HD __host__ __device__
#else
#define STCSIM_SWIZZLE_HD
#endif

namespace stcsim {

// Byte offset of 16-byte chunk `chunk` of row `row` in a tile of `tile_rows` rows of
// `row_bytes` bytes. Rows of >= 128 bytes are cut into 128-byte panels stored one after
// another (as CUTLASS tiles K in 64-element blocks), and within a panel chunk ^= row % 8,
// so eight rows read at one column hit eight different chunks; narrower rows share a
// 128-byte line and the chunk is XORed with the line index.
STCSIM_SWIZZLE_HD constexpr std::uint32_t swizzled_smem_offset(int row, int chunk, int row_bytes,
                                                               int tile_rows) {
  if (row_bytes >= 128) {
    const int panel = chunk / 8, c = chunk % 8;
    return std::uint32_t(panel * tile_rows * 128 + row * 128 + ((c ^ (row % 8)) * 16));
  }
  const std::uint32_t o = std::uint32_t(row * row_bytes + chunk * 16);
  const std::uint32_t line = o / 128, c = (o % 128) / 16;
  return line * 128 + ((c ^ (line % 8)) * 16);
}

}  // namespace stcsim
