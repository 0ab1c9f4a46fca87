// The block-sparse kernel's per-panel work list, built once per kernel launch from the
// weight's block map. A CTA owns a row panel of cta_m rows of W (the kernel's A) and
// runs its k-loop over the union of its block rows' nonzero block columns only: the
// kept columns, concatenated in order, are cut into k-tiles of cta_k elements (so a
// k-tile holds cta_k / c block columns when c < cta_k, and a block spans c / cta_k
// k-tiles when c > cta_k). Per k-tile it loads the kept blocks' values (BSR storage is
// contiguous per block row: one run per block row) and gathers the activation columns
// those blocks multiply (one run per contiguous column range).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "models/common/gemm_op.h"

namespace stcsim {

struct BlockKTile {
  int k_elems = 0;  // kept K elements this k-tile multiplies (<= cta_k)
  int blocks = 0;   // block indices first needed by this k-tile (decode work)
  std::vector<std::pair<std::int64_t, int>> b_segs;             // (first K column, columns)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> a_runs;  // (byte offset in A values, bytes)
};

struct PanelPlan {
  std::vector<BlockKTile> ktiles;
  std::int64_t kept_k = 0;      // K elements the panel multiplies (its work per output column)
  std::int64_t nnz_blocks = 0;  // stored blocks of its block rows (indices to fetch and decode)
  // Its slices of the index arrays: row_ptr (4 bytes per block row + 1), then col_idx
  // (4 bytes per block) stored after the whole row_ptr array.
  std::uint64_t row_ptr_offset = 0, col_idx_offset = 0;
  std::uint32_t row_ptr_bytes = 0, col_idx_bytes = 0;
};

// Panels of the kernel problem `kop` (m = rows of W per batch, k = K) for tiles of
// cta_m x cta_k, indexed batch * tiles_m + tile_m. `a_bytes_per_k`: stored bytes per
// weight element (halved by 2:4 inside blocks).
std::vector<PanelPlan> build_panel_plans(const BlockMap& map, const GemmOp& kop, int cta_m,
                                         int cta_k, double a_bytes_per_k);

// Max over mean of the panels' kept K per CTA (1 when no CTA has work).
double panel_imbalance(const std::vector<PanelPlan>& panels, int tiles_m, int batch, int tiles_n);

}  // namespace stcsim
