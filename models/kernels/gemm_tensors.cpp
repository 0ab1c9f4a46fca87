#include "models/kernels/gemm_tensors.h"

namespace stcsim {

double tile_stage_load(const GemmTensors& k, const CtaTask& t, std::int64_t k0, MemRequest& r,
                       RowShare b_share) {
  const auto& op = k.op;
  const int eb = input_bytes(op.dtype);
  const std::int64_t kb = std::min<std::int64_t>(k.map.cta_k, t.k_end - k0);
  const auto [m0, n0, tile_rows, tile_cols] = tile_extent(k, t);
  r.reset();
  // A: one row of kept values per row of the tile (compressed when sparse).
  const double a_bpk = k.mma.a_bytes_per_k();
  const auto rows_a = std::uint32_t(tile_rows);
  const std::uint64_t bi = std::uint64_t(t.batch);
  const bool gather_a = k.activation.present() && !k.transposed_output;
  const bool gather_b = k.activation.present() && k.transposed_output;
  if (gather_a)
    conv_activation_runs(k.activation, k.base.a + bi * k.a_stride, m0, tile_rows, k0, kb, r.runs);
  else
    r.runs.push_back(RowRun{k.base.a + bi * k.a_stride + std::uint64_t((m0 * op.k + k0) * a_bpk),
                            std::uint32_t(kb * a_bpk), rows_a, std::uint64_t(op.k * a_bpk)});
  if (!k.mma.sparsity.dense()) {
    // Metadata is stored reordered tile by tile: one contiguous block per (tile, k-tile).
    const double tile_meta = double(k.map.cta_m) * k.map.cta_k * k.mma.meta_bytes_per_k();
    const std::int64_t ktiles = (op.k + k.map.cta_k - 1) / k.map.cta_k;
    const std::int64_t block = std::int64_t(t.tile_m) * ktiles + (k0 / k.map.cta_k);
    r.runs.push_back(RowRun{k.base.meta + bi * k.meta_stride + std::uint64_t(block * tile_meta),
                            std::uint32_t(rows_a * kb * k.mma.meta_bytes_per_k()), 1, 0});
  }
  const std::int64_t b0 = n0 + std::min(b_share.first, tile_cols);
  const std::int64_t b_rows =
      b_share.count < 0 ? n0 + tile_cols - b0 : std::min(b_share.count, n0 + tile_cols - b0);
  if (gather_b)
    conv_activation_runs(k.activation, k.base.b + bi * k.b_stride, b0, b_rows, k0, kb, r.runs);
  else if (b_rows > 0)
    r.runs.push_back(RowRun{k.base.b + bi * k.b_stride + std::uint64_t((b0 * op.k + k0) * eb),
                            std::uint32_t(kb * eb), std::uint32_t(b_rows),
                            std::uint64_t(op.k * eb)});
  return double(kb * eb);
}

void tile_store(const GemmTensors& k, const CtaTask& t, bool partial, MemRequest& store) {
  const auto& op = k.op;
  const auto [m0, n0, tile_rows, cols] = tile_extent(k, t);
  const auto rows = std::uint32_t(tile_rows);
  const int ob = partial ? 4 : output_bytes(op.dtype);
  const std::uint64_t bi = std::uint64_t(t.batch);
  const std::uint64_t base = partial ? k.base.workspace + bi * k.workspace_stride +
                                           std::uint64_t(t.split * op.m * op.n * 4)
                                     : k.base.c + bi * k.c_stride;
  store.reset();
  store.write = true;
  if (k.transposed_output && !partial) {
    store.runs.push_back(RowRun{base + std::uint64_t((n0 * op.m + m0) * ob),
                                std::uint32_t(rows * ob), std::uint32_t(cols),
                                std::uint64_t(op.m * ob)});
  } else {
    store.runs.push_back(RowRun{base + std::uint64_t((m0 * op.n + n0) * ob),
                                std::uint32_t(cols * ob), rows, std::uint64_t(op.n * ob)});
  }
}

}  // namespace stcsim
