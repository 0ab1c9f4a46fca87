#include "models/kernels/gemm_tensors.h"

#include <algorithm>
#include <utility>

namespace stcsim {

StageRowBytes tile_stage_load(const GemmTensors& k, const CtaTask& t, std::int64_t k0,
                              MemRequest& r, RowShare b_share, RowShare a_share) {
  const auto& op = k.op;
  const int eb = input_bytes(op.dtype);
  const std::int64_t kb = std::min<std::int64_t>(k.map.cta_k, t.k_end - k0);
  const auto [m0, n0, tile_rows, tile_cols] = tile_extent(k, t);
  r.reset();
  // The rows [first, first + count) of `rows` a share asks for, clipped to the tile.
  const auto share = [](RowShare s, std::int64_t rows) {
    const std::int64_t first = std::min(s.first, rows);
    return std::pair{first, s.count < 0 ? rows - first : std::min(s.count, rows - first)};
  };
  // A: one row of kept values per row of the tile (compressed when sparse).
  const double a_bpk = k.mma.a_bytes_per_k();
  const auto [a_first, a_rows] = share(a_share, tile_rows);
  const std::int64_t a0 = m0 + a_first;
  const std::uint64_t bi = std::uint64_t(t.batch);
  const bool gather_a = k.activation.present() && !k.transposed_output;
  const bool gather_b = k.activation.present() && k.transposed_output;
  if (gather_a)
    conv_activation_runs(k.activation, k.base.a + bi * k.a_stride, a0, a_rows, k0, kb, r.runs);
  else if (a_rows > 0)
    r.runs.push_back(RowRun{k.base.a + bi * k.a_stride + std::uint64_t((a0 * op.k + k0) * a_bpk),
                            std::uint32_t(kb * a_bpk), std::uint32_t(a_rows),
                            std::uint64_t(op.k * a_bpk)});
  const double meta_row = double(kb) * k.mma.meta_bytes_per_k();
  if (!k.mma.sparsity.dense() && a_rows > 0) {
    // Metadata is stored reordered tile by tile: one contiguous block per (tile, k-tile),
    // row after row.
    const double tile_meta = double(k.map.cta_m) * k.map.cta_k * k.mma.meta_bytes_per_k();
    const std::int64_t ktiles = (op.k + k.map.cta_k - 1) / k.map.cta_k;
    const std::int64_t block = std::int64_t(t.tile_m) * ktiles + (k0 / k.map.cta_k);
    r.runs.push_back(RowRun{
        k.base.meta + bi * k.meta_stride + std::uint64_t(block * tile_meta + a_first * meta_row),
        std::uint32_t(a_rows * meta_row), 1, 0});
  }
  const auto [b_first, b_rows] = share(b_share, tile_cols);
  const std::int64_t b0 = n0 + b_first;
  if (gather_b)
    conv_activation_runs(k.activation, k.base.b + bi * k.b_stride, b0, b_rows, k0, kb, r.runs);
  else if (b_rows > 0)
    r.runs.push_back(RowRun{k.base.b + bi * k.b_stride + std::uint64_t((b0 * op.k + k0) * eb),
                            std::uint32_t(kb * eb), std::uint32_t(b_rows),
                            std::uint64_t(op.k * eb)});
  return {double(kb) * a_bpk + (k.mma.sparsity.dense() ? 0.0 : meta_row), double(kb * eb)};
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
