#include "models/kernels/csr_plan.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/core/input_error.h"

namespace stcsim {

std::vector<CsrPanel> build_csr_panels(const BlockMap& map, int batch, std::int64_t m,
                                       int rows_per_cta, int nnz_per_stage, int value_bytes) {
  if (map.r != 1 || map.c != 1) throw InputError("the CSR kernel needs an unstructured (1x1) map");
  if (map.block_rows < batch * m || std::int64_t(map.row_ptr.size()) != map.block_rows + 1)
    throw InputError("the CSR map does not cover the weight");
  auto len = [&](std::int64_t r) {
    return map.row_ptr[std::size_t(r) + 1] - map.row_ptr[std::size_t(r)];
  };
  std::vector<CsrPanel> out;
  std::vector<std::int64_t> order(static_cast<std::size_t>(m)), cols;
  std::vector<int> row_nnz;
  std::vector<CsrStage::Run> index_runs;
  for (int b = 0; b < batch; ++b) {
    std::iota(order.begin(), order.end(), std::int64_t(b) * m);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t x, std::int64_t y) { return len(x) > len(y); });
    for (std::size_t p0 = 0; p0 < order.size(); p0 += std::size_t(rows_per_cta)) {
      CsrPanel p;
      p.batch = b;
      p.rows.assign(
          order.begin() + std::ptrdiff_t(p0),
          order.begin() + std::ptrdiff_t(std::min(order.size(), p0 + std::size_t(rows_per_cta))));
      int longest = 0;
      for (auto r : p.rows) {
        longest = std::max(longest, len(r));
        p.nnz += len(r);
      }
      const int nst = (longest + nnz_per_stage - 1) / nnz_per_stage;
      // Each stage's arrays, appended to the panel's words; the stages point at them once
      // the words stop growing.
      struct Extent {
        std::size_t at;
        std::uint32_t runs, cols, rows;
      };
      std::vector<Extent> extents;
      for (int t = 0; t < nst; ++t) {
        Extent e{p.words.size(), 0, 0, std::uint32_t(p.rows.size())};
        index_runs.clear();
        cols.clear();
        row_nnz.clear();
        for (auto r : p.rows) {
          const int s0 = map.row_ptr[std::size_t(r)] + t * nnz_per_stage;
          const int s1 = std::min(map.row_ptr[std::size_t(r) + 1], s0 + nnz_per_stage);
          row_nnz.push_back(std::max(0, s1 - s0));
          if (s1 <= s0) continue;
          p.words.push_back(std::uint64_t(s0) * value_bytes);  // the value run
          p.words.push_back(std::uint64_t((s1 - s0) * value_bytes));
          index_runs.push_back({std::uint64_t(s0) * 4, std::uint32_t((s1 - s0) * 4)});
          for (int q = s0; q < s1; ++q) cols.push_back(map.col_idx[std::size_t(q)]);
        }
        e.runs = std::uint32_t(index_runs.size());
        for (const auto& [off, bytes] : index_runs) {
          p.words.push_back(off);
          p.words.push_back(bytes);
        }
        std::sort(cols.begin(), cols.end());
        cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
        e.cols = std::uint32_t(cols.size());
        for (const auto c : cols) p.words.push_back(std::uint64_t(c));
        for (const int n : row_nnz) p.words.push_back(std::uint64_t(n));
        extents.push_back(e);
      }
      p.words.shrink_to_fit();
      for (const Extent& e : extents)
        p.stages.emplace_back(p.words.data() + e.at, e.runs, e.cols, e.rows);
      out.push_back(std::move(p));
    }
  }
  return out;
}

int csr_tile_cols(std::int64_t n, int lanes, Dtype d) {
  int best = 32;
  double best_cost = 1e300;
  for (int cols : {32, 64, 128}) {
    const double cost = double((n + cols - 1) / cols) * csr_cycles_per_nnz(cols, lanes, d);
    if (cost <= best_cost) {
      best_cost = cost;
      best = cols;
    }
  }
  return best;
}

double csr_cycles_per_nnz(int cols, int lanes, Dtype d) {
  const double per_thread = std::max(1.0, cols / 32.0);
  const double convert = input_bytes(d) < 4 ? std::ceil(per_thread / 2) : 0.0;
  const double issue = 1.0 + convert + per_thread + 0.5;
  const double fma_pipe = double(cols) / lanes;
  return std::max(issue, fma_pipe);
}

}  // namespace stcsim
