#include "models/kernels/block_plan.h"

#include <algorithm>

#include "sim/core/input_error.h"

namespace stcsim {

std::vector<PanelPlan> build_panel_plans(const BlockMap& map, const GemmOp& kop, int cta_m,
                                         int cta_k, double a_bytes_per_k) {
  const std::int64_t rows_total = std::int64_t(kop.batch) * kop.m;
  if (map.block_rows * map.r < rows_total || map.block_cols * map.c < kop.k ||
      std::int64_t(map.row_ptr.size()) != map.block_rows + 1)
    throw InputError(kop.name + ": the block map does not cover the weight");
  const int tiles_m = int((kop.m + cta_m - 1) / cta_m);
  const double block_bytes = double(map.r) * map.c * a_bytes_per_k;
  std::vector<PanelPlan> out(std::size_t(kop.batch) * tiles_m);
  std::vector<int> uni, pos;
  for (int b = 0; b < kop.batch; ++b)
    for (int tm = 0; tm < tiles_m; ++tm) {
      PanelPlan& p = out[std::size_t(b) * tiles_m + tm];
      const std::int64_t g0 = std::int64_t(b) * kop.m + std::int64_t(tm) * cta_m;
      const std::int64_t g1 = std::min<std::int64_t>(std::int64_t(b) * kop.m + kop.m, g0 + cta_m);
      const std::int64_t br0 = g0 / map.r, br1 = (g1 - 1) / map.r;  // inclusive
      map.union_columns(g0, g1, uni);
      // Position of each union column in the concatenated kept-K sequence.
      pos.assign(uni.size() + 1, 0);
      for (std::size_t j = 0; j < uni.size(); ++j)
        pos[j + 1] =
            pos[j] + int(std::min<std::int64_t>(map.c, kop.k - std::int64_t(uni[j]) * map.c));
      p.kept_k = pos.back();
      p.nnz_blocks = map.row_ptr[br1 + 1] - map.row_ptr[br0];
      p.row_ptr_offset = std::uint64_t(br0) * 4;
      p.row_ptr_bytes = std::uint32_t((br1 - br0 + 2) * 4);
      p.col_idx_offset =
          std::uint64_t(map.block_rows + 1) * 4 + std::uint64_t(map.row_ptr[br0]) * 4;
      p.col_idx_bytes = std::uint32_t(p.nnz_blocks * 4);
      const int nk = int((p.kept_k + cta_k - 1) / cta_k);
      p.ktiles.resize(std::size_t(nk));
      for (int t = 0; t < nk; ++t)
        p.ktiles[t].k_elems =
            int(std::min<std::int64_t>(cta_k, p.kept_k - std::int64_t(t) * cta_k));
      // Activation columns: walk the union, splitting at k-tile edges, merging neighbours.
      for (std::size_t j = 0; j < uni.size(); ++j)
        for (int e = pos[j]; e < pos[j + 1];) {
          const int t = e / cta_k, len = std::min(pos[j + 1], (t + 1) * cta_k) - e;
          const std::int64_t kcol = std::int64_t(uni[j]) * map.c + (e - pos[j]);
          auto& segs = p.ktiles[t].b_segs;
          if (!segs.empty() && segs.back().first + segs.back().second == kcol)
            segs.back().second += len;
          else
            segs.push_back({kcol, len});
          e += len;
        }
      // Weight values: each block row's kept blocks, parts by k-tile, one run per row.
      for (std::int64_t i = br0; i <= br1; ++i) {
        const double rows_in = double(std::min<std::int64_t>(g1, (i + 1) * map.r) -
                                      std::max<std::int64_t>(g0, i * map.r));
        const double row_bpk =
            rows_in * a_bytes_per_k;  // bytes per kept K element of this row's blocks
        // A panel edge inside a block row reads only its rows of each block.
        const double row_skip =
            double(std::max<std::int64_t>(g0, i * map.r) - i * map.r) * map.c * a_bytes_per_k;
        int last_t = -1;
        for (int q = map.row_ptr[i]; q < map.row_ptr[i + 1]; ++q) {
          const std::size_t j =
              std::size_t(std::lower_bound(uni.begin(), uni.end(), map.col_idx[q]) - uni.begin());
          ++p.ktiles[pos[j] / cta_k].blocks;
          double off = double(q) * block_bytes + row_skip;
          for (int e = pos[j]; e < pos[j + 1];) {
            const int t = e / cta_k, len = std::min(pos[j + 1], (t + 1) * cta_k) - e;
            const auto bytes = std::uint32_t(len * row_bpk);
            auto& runs = p.ktiles[t].a_runs;
            if (t == last_t)
              runs.back().second += bytes;
            else
              runs.push_back({std::uint64_t(off), bytes});
            last_t = t;
            off += len * row_bpk;
            e += len;
          }
        }
      }
    }
  return out;
}

double panel_imbalance(const std::vector<PanelPlan>& panels, int tiles_m, int batch, int tiles_n) {
  // Every CTA of a panel (all tile_n) has the panel's work.
  double mx = 0, sum = 0;
  for (int b = 0; b < batch; ++b)
    for (int tm = 0; tm < tiles_m; ++tm) {
      const double w = double(panels[std::size_t(b) * tiles_m + tm].kept_k);
      mx = std::max(mx, w);
      sum += w * tiles_n;
    }
  const double mean = sum / (double(tiles_m) * batch * tiles_n);
  return mean > 0 ? mx / mean : 1.0;
}

}  // namespace stcsim
