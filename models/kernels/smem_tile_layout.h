// Where a multistage kernel's A and B tiles sit in shared memory, and what its warps'
// ldmatrix reads of them cost in wavefronts of the shared-memory port.
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/mma_kind.h"
#include "models/mapping/kernel_mapping.h"
#include "models/smem/i_shared_memory.h"

namespace stcsim {

// Byte offset in shared memory of 16-byte chunk `chunk` of row `row` of a tile of
// `tile_rows` rows holding `row_bytes` bytes each, under `layout`.
std::uint32_t smem_offset(SmemLayout layout, int row, int chunk, int row_bytes, int tile_rows);

// Wavefronts of one warp's fragment reads for one k-sub: those of A (with the metadata
// when sparse) and those of B, apart because the mainloop may load them at different
// times (KernelMapping::b_fragment_buffers).
struct FragmentReads {
  int a = 0;  // A's ldmatrix phases, plus the metadata's loads for a sparse kind
  int b = 0;  // B's ldmatrix phases
  int total() const { return a + b; }
};

// Shared-memory wavefronts of every ldmatrix phase a warp issues per k-sub
// ([warp][k-sub]), from the real byte addresses of its fragments under the mapping's
// layout. A sparse kind adds the metadata fragment reads (conflict-free 16-byte loads).
std::vector<std::vector<FragmentReads>> ldmatrix_wavefronts(const KernelMapping& m,
                                                            const MmaKind& kind,
                                                            const ISharedMemory& smem);

}  // namespace stcsim
