#include "models/kernels/smem_tile_layout.h"

#include <algorithm>

#include "models/common/smem_swizzle.h"

namespace stcsim {

std::uint32_t smem_offset(SmemLayout layout, int row, int chunk, int row_bytes, int tile_rows) {
  switch (layout) {
    case SmemLayout::Naive:
      return std::uint32_t(row * row_bytes + chunk * 16);
    case SmemLayout::Padded:
      return std::uint32_t(row * (row_bytes + 16) + chunk * 16);
    case SmemLayout::Swizzled:
      return swizzled_smem_offset(row, chunk, row_bytes, tile_rows);
  }
  return 0;
}

std::vector<std::vector<FragmentReads>> ldmatrix_wavefronts(const KernelMapping& m,
                                                            const MmaKind& kind,
                                                            const ISharedMemory& smem) {
  const auto s = kind.shape();
  const int eb = input_bytes(kind.dtype);
  // Row bytes of the A (values) and B tiles in shared memory, and 16-byte chunks of
  // each that one k-sub (one instruction's K) reads per row.
  const int a_row = int(m.cta_k * kind.a_bytes_per_k()), b_row = m.cta_k * eb;
  const int a_chunks = std::max(1, int(s.k * kind.a_bytes_per_k()) / 16);
  const int b_chunks = std::max(1, s.k * eb / 16);
  const int ksubs = m.cta_k / s.k;
  const int warps_m = m.cta_m / m.warp_m;
  // The B tile starts after the whole A tile.
  const std::uint32_t b_region = m.layout == SmemLayout::Padded
                                     ? std::uint32_t(m.cta_m * (a_row + 16))
                                     : std::uint32_t(m.cta_m * a_row);
  const double meta_bytes = double(m.warp_m) * s.k * kind.meta_bytes_per_k();
  const int meta_wavefronts =
      int((meta_bytes + smem.bytes_per_cycle() - 1) / smem.bytes_per_cycle());
  std::vector<std::vector<FragmentReads>> out(m.warps(), std::vector<FragmentReads>(ksubs));
  std::vector<std::uint32_t> addrs(8);
  auto phase = [&](std::uint32_t base, int row0, int chunk, int row_bytes) {
    const int rows = base == 0 ? m.cta_m : m.cta_n;
    for (int r = 0; r < 8; ++r)
      addrs[r] = base + smem_offset(m.layout, row0 + r, chunk, row_bytes, rows);
    return smem.wavefronts(addrs, 16);
  };
  for (int w = 0; w < m.warps(); ++w) {
    const int row_a = (w % warps_m) * m.warp_m, row_b = (w / warps_m) * m.warp_n;
    for (int k = 0; k < ksubs; ++k) {
      FragmentReads& f = out[w][k];
      f.a = meta_wavefronts;
      for (int c = 0; c < a_chunks; ++c)
        for (int r = 0; r < m.warp_m; r += 8) f.a += phase(0, row_a + r, k * a_chunks + c, a_row);
      for (int c = 0; c < b_chunks; ++c)
        for (int r = 0; r < m.warp_n; r += 8)
          f.b += phase(b_region, row_b + r, k * b_chunks + c, b_row);
    }
  }
  return out;
}

}  // namespace stcsim
