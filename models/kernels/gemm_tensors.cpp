#include "models/kernels/gemm_tensors.h"

namespace stcsim {

void tile_store(const GemmTensors& k, const CtaTask& t, bool partial, MemRequest& store) {
  const auto& op = k.op;
  const auto [m0, n0, tile_rows, cols] = tile_extent(k, t);
  const auto rows = std::uint32_t(tile_rows);
  const int ob = partial ? 4 : output_bytes(op.dtype);
  const std::uint64_t bi = std::uint64_t(t.batch);
  const std::uint64_t base = partial ? k.base.workspace + bi * k.workspace_stride + std::uint64_t(t.split * op.m * op.n * 4)
                                     : k.base.c + bi * k.c_stride;
  store = MemRequest{};
  store.write = true;
  if (k.transposed_output && !partial) {
    store.runs.push_back(RowRun{base + std::uint64_t((n0 * op.m + m0) * ob), std::uint32_t(rows * ob),
                                std::uint32_t(cols), std::uint64_t(op.m * ob)});
  } else {
    store.runs.push_back(
        RowRun{base + std::uint64_t((m0 * op.n + n0) * ob), std::uint32_t(cols * ob), rows, std::uint64_t(op.n * ob)});
  }
}

}  // namespace stcsim
