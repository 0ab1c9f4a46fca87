#include "models/sm/kernel_launch.h"

#include <algorithm>

namespace stcsim {

std::uint32_t smem_offset(SmemLayout layout, int row, int chunk, int row_bytes, int tile_rows) {
  switch (layout) {
    case SmemLayout::Naive: return std::uint32_t(row * row_bytes + chunk * 16);
    case SmemLayout::Padded: return std::uint32_t(row * (row_bytes + 16) + chunk * 16);
    case SmemLayout::Swizzled: {
      if (row_bytes >= 128) {
        // Rows are cut into 128-byte panels stored one after another (as CUTLASS tiles
        // K in 64-element blocks); within a panel, chunk ^= row % 8 (Swizzle<3,4,3>),
        // so eight rows read at one column hit eight different chunks.
        const int panel = chunk / 8, c = chunk % 8;
        return std::uint32_t(panel * tile_rows * 128 + row * 128 + ((c ^ (row % 8)) * 16));
      }
      // Narrow rows share a 128-byte line: XOR the chunk with the line index.
      const std::uint32_t o = std::uint32_t(row * row_bytes + chunk * 16);
      const std::uint32_t line = o / 128, c = (o % 128) / 16;
      return line * 128 + ((c ^ (line % 8)) * 16);
    }
  }
  return 0;
}

std::vector<std::vector<int>> ldmatrix_wavefronts(const KernelMapping& m, const MmaKind& kind,
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
  const std::uint32_t b_region =
      m.layout == SmemLayout::Padded ? std::uint32_t(m.cta_m * (a_row + 16)) : std::uint32_t(m.cta_m * a_row);
  const double meta_bytes = double(m.warp_m) * s.k * kind.meta_bytes_per_k();
  const int meta_wavefronts = int((meta_bytes + smem.bytes_per_cycle() - 1) / smem.bytes_per_cycle());
  std::vector<std::vector<int>> out(m.warps(), std::vector<int>(ksubs, 0));
  std::vector<std::uint32_t> addrs(8);
  auto phase = [&](std::uint32_t base, int row0, int chunk, int row_bytes) {
    const int rows = base == 0 ? m.cta_m : m.cta_n;
    for (int r = 0; r < 8; ++r) addrs[r] = base + smem_offset(m.layout, row0 + r, chunk, row_bytes, rows);
    return smem.wavefronts(addrs, 16);
  };
  for (int w = 0; w < m.warps(); ++w) {
    const int row_a = (w % warps_m) * m.warp_m, row_b = (w / warps_m) * m.warp_n;
    for (int k = 0; k < ksubs; ++k) {
      int total = meta_wavefronts;
      for (int c = 0; c < a_chunks; ++c)
        for (int r = 0; r < m.warp_m; r += 8) total += phase(0, row_a + r, k * a_chunks + c, a_row);
      for (int c = 0; c < b_chunks; ++c)
        for (int r = 0; r < m.warp_n; r += 8) total += phase(b_region, row_b + r, k * b_chunks + c, b_row);
      out[w][k] = total;
    }
  }
  return out;
}

namespace {
// What every GEMM-like kernel of `user_op` starts from: its problem, schedule and tensors.
KernelLaunch launch_of(const GemmOp& user_op, const KernelMapping& map, int ctas_per_sm,
                       const TensorAddresses& addr) {
  KernelLaunch k;
  k.kind = KernelKind::Gemm;
  k.op = kernel_problem(user_op);
  k.mma = user_op.kind();
  k.transposed_output = weight_is_kernel_a(user_op);
  k.map = map;
  k.ctas_per_sm = ctas_per_sm;
  k.a_base = addr.a;
  k.meta_base = addr.meta;
  k.b_base = addr.b;
  k.c_base = addr.c;
  k.workspace_base = addr.workspace;
  k.index_base = addr.index;
  return k;
}
}  // namespace

KernelLaunch make_gemm_kernel(const GemmOp& user_op, const KernelMapping& map, int ctas_per_sm,
                              const ISharedMemory& smem, const TensorAddresses& addr) {
  KernelLaunch k = launch_of(user_op, map, ctas_per_sm, addr);
  const GemmOp& op = k.op;
  const auto s = k.mma.shape();
  k.mma_per_warp_ksub = (map.warp_m / s.m) * (map.warp_n / s.n);
  k.wavefronts = ldmatrix_wavefronts(map, k.mma, smem);
  if (user_op.block_sparse()) {
    k.block_sparse = true;
    k.panels = build_panel_plans(*user_op.block_map, k.op, map.cta_m, map.cta_k, k.mma.a_bytes_per_k());
  }

  const int tiles_m = int((op.m + map.cta_m - 1) / map.cta_m);
  const int tiles_n = int((op.n + map.cta_n - 1) / map.cta_n);
  // K slices are whole k-tiles so that every slice but the last is full.
  const std::int64_t ktiles = (op.k + map.cta_k - 1) / map.cta_k;
  const std::int64_t per_split = (ktiles + map.split_k - 1) / map.split_k;
  const int group = std::max(1, map.swizzle);
  const std::int64_t ktiles_all = (op.k + map.cta_k - 1) / map.cta_k;
  k.a_stride = std::uint64_t(double(op.m) * op.k * k.mma.a_bytes_per_k());
  k.meta_stride = std::uint64_t(double(tiles_m) * ktiles_all * map.cta_m * map.cta_k * k.mma.meta_bytes_per_k());
  k.b_stride = std::uint64_t(op.n * op.k * input_bytes(op.dtype));
  k.c_stride = std::uint64_t(op.m * op.n * output_bytes(op.dtype));
  k.workspace_stride = std::uint64_t(4 * map.split_k * op.m * op.n);
  for (int batch = 0; batch < op.batch; ++batch)
  for (int split = 0; split < map.split_k; ++split) {
    const std::int64_t kb = std::min<std::int64_t>(op.k, split * per_split * map.cta_k);
    const std::int64_t ke = std::min<std::int64_t>(op.k, (split + 1) * per_split * map.cta_k);
    if (kb >= ke) continue;
    k.splits = split + 1;
    // Rasterization: launch `group` adjacent N-tiles together, M fastest within them,
    // so concurrently running CTAs share A row panels and B column panels in the L2.
    for (int n0 = 0; n0 < tiles_n; n0 += group)
      for (int tm = 0; tm < tiles_m; ++tm)
        for (int tn = n0; tn < std::min(tiles_n, n0 + group); ++tn)
          k.ctas.push_back(CtaTask{tm, tn, split, batch, kb, ke, batch * tiles_m + tm});
  }
  return k;
}

KernelLaunch make_csr_kernel(const GemmOp& user_op, const KernelMapping& map, int ctas_per_sm, int fp32_lanes,
                             const TensorAddresses& addr) {
  KernelLaunch k = launch_of(user_op, map, ctas_per_sm, addr);  // W is A: transposed output
  k.mma = MmaKind{user_op.dtype, {}};  // no tensor-core instruction; the dtype sets the bytes
  k.csr = true;
  const GemmOp& op = k.op;
  k.csr_panels = build_csr_panels(*user_op.block_map, op.batch, op.m, map.cta_m, map.cta_k, input_bytes(op.dtype));
  k.csr_cycles_per_nnz = csr_cycles_per_nnz(map.cta_n, fp32_lanes, op.dtype);
  k.csr_col_idx_offset = std::uint64_t(user_op.block_map->block_rows + 1) * 4;
  k.b_stride = std::uint64_t(op.n * op.k * input_bytes(op.dtype));
  const int tiles_n = int((op.n + map.cta_n - 1) / map.cta_n);
  // Heaviest panels first (row swizzle); a panel's column tiles launch together so
  // they share its nonzeros in the L2.
  for (int p = 0; p < int(k.csr_panels.size()); ++p)
    for (int tn = 0; tn < tiles_n; ++tn) k.ctas.push_back(CtaTask{p, tn, 0, k.csr_panels[std::size_t(p)].batch, 0, op.k, p});
  return k;
}

KernelLaunch make_reduce_kernel(const KernelLaunch& gemm) {
  KernelLaunch k = gemm;
  k.kind = KernelKind::SplitKReduce;
  k.ctas.clear();
  k.wavefronts.clear();
  k.block_sparse = false;
  k.panels.clear();
  k.ctas_per_sm = 4;  // a light elementwise kernel: 4 CTAs per SM stream the partials
  const int tiles_m = int((gemm.op.m + gemm.map.cta_m - 1) / gemm.map.cta_m);
  const int tiles_n = int((gemm.op.n + gemm.map.cta_n - 1) / gemm.map.cta_n);
  for (int batch = 0; batch < gemm.op.batch; ++batch)
    for (int tm = 0; tm < tiles_m; ++tm)
      for (int tn = 0; tn < tiles_n; ++tn) k.ctas.push_back(CtaTask{tm, tn, 0, batch, 0, gemm.op.k});
  return k;
}

}  // namespace stcsim
