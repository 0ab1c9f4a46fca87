#include "models/sm/block_map_gen.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/common/splitmix64.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace {
// BSR/CSR row offsets are 32-bit, as in cuSPARSE's default.
void refuse_over_32_bits(double blocks) {
  if (blocks > 2147483647.0)
    throw InputError("the map would keep " + std::to_string(std::llround(blocks)) +
                     " blocks, more than 2^31-1 (32-bit row offsets): use larger blocks or "
                     "higher sparsity");
}
}  // namespace

BlockDist parse_block_dist(const std::string& s) {
  if (s == "uniform") return BlockDist::Uniform;
  if (s == "skewed") return BlockDist::Skewed;
  throw InputError("--block-dist: expected uniform or skewed, got '" + s + "'");
}

BlockMap make_block_map(std::int64_t rows, std::int64_t cols, int r, int c, double sparsity,
                        BlockDist dist, std::uint64_t seed, int min_per_row) {
  if (r < 1 || c < 1 || r > 64 || c > 64) throw InputError("block size must be 1x1 to 64x64");
  if (!(sparsity >= 0 && sparsity <= 1)) throw InputError("block sparsity must be in [0, 1]");
  if (min_per_row < 0) throw InputError("blocks kept a row: the floor must be 0 or more");
  BlockMap b;
  b.r = r;
  b.c = c;
  b.block_rows = (rows + r - 1) / r;
  b.block_cols = (cols + c - 1) / c;
  const std::int64_t R = b.block_rows, C = b.block_cols;
  const double per_row = (1.0 - sparsity) * double(C);
  refuse_over_32_bits(per_row * double(R));  // before the rows' counts are allocated
  std::vector<std::int64_t> keep(static_cast<std::size_t>(R), std::llround(per_row));
  if (dist == BlockDist::Skewed) {
    const std::int64_t total = std::llround(per_row * double(R));
    std::vector<std::int64_t> order(static_cast<std::size_t>(R));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b2) {
      return splitmix64(seed * 31 + std::uint64_t(a)) < splitmix64(seed * 31 + std::uint64_t(b2));
    });
    std::vector<double> w(static_cast<std::size_t>(R));
    for (std::int64_t i = 0; i < R; ++i)
      w[std::size_t(order[std::size_t(i)])] = 1.0 / double(i + 1);
    // Water-fill: rows whose share exceeds a full row are capped, the rest rescaled.
    std::vector<bool> capped(static_cast<std::size_t>(R), false);
    std::int64_t left = total;
    for (int pass = 0; pass < 64; ++pass) {
      double wsum = 0;
      for (std::int64_t i = 0; i < R; ++i)
        if (!capped[std::size_t(i)]) wsum += w[std::size_t(i)];
      bool changed = false;
      for (std::int64_t i = 0; i < R; ++i)
        if (!capped[std::size_t(i)] && wsum > 0 &&
            double(left) * w[std::size_t(i)] / wsum >= double(C)) {
          capped[std::size_t(i)] = true;
          keep[std::size_t(i)] = C;
          left -= C;
          changed = true;
        }
      if (changed) continue;
      // Largest remainders keep the total exact.
      std::int64_t given = 0;
      std::vector<std::pair<double, std::int64_t>> rem;
      for (std::int64_t i = 0; i < R; ++i) {
        if (capped[std::size_t(i)]) continue;
        const double q = wsum > 0 ? double(left) * w[std::size_t(i)] / wsum : 0;
        keep[std::size_t(i)] = std::int64_t(q);
        given += keep[std::size_t(i)];
        rem.push_back({q - std::floor(q), i});
      }
      std::sort(rem.begin(), rem.end(), [](auto& a, auto& b2) {
        return a.first > b2.first || (a.first == b2.first && a.second < b2.second);
      });
      for (std::size_t j = 0; j < rem.size() && given < left; ++j, ++given)
        ++keep[std::size_t(rem[j].second)];
      break;
    }
  }
  b.row_ptr.push_back(0);
  for (std::int64_t& k : keep) k = std::max<std::int64_t>(k, min_per_row);  // then capped at C
  std::int64_t kept = 0;
  for (const std::int64_t k : keep) kept += std::clamp<std::int64_t>(k, 0, C);
  refuse_over_32_bits(double(kept));  // the rounded counts, and the floor's
  b.col_idx.reserve(std::size_t(kept));
  std::vector<std::uint64_t> h(static_cast<std::size_t>(C));
  std::vector<std::pair<std::uint64_t, int>> cand;
  for (std::int64_t i = 0; i < R; ++i) {
    const std::int64_t n = std::clamp<std::int64_t>(keep[std::size_t(i)], 0, C);
    for (std::int64_t j = 0; j < C; ++j)
      h[std::size_t(j)] =
          splitmix64(seed ^ splitmix64(std::uint64_t(i) * std::uint64_t(C) + std::uint64_t(j)));
    // The row keeps its n smallest (hash, column) pairs, in column order. The hashes are
    // uniform, so the n-th smallest lies near n/C of the range: take the columns under a
    // cut a few standard deviations above that, and select among them alone (the same set
    // as selecting among all C: every pair under the n-th smallest is under the cut). A
    // cut that catches fewer than n falls back to all C.
    std::pair<std::uint64_t, int> nth{~std::uint64_t{0}, int(C)};  // n == C: all of them
    if (n == 0) {
      nth = {0, -1};  // none
    } else if (n < C) {
      const double p = double(n) / double(C);
      const double q =
          std::min(1.0, p + 6.0 * std::sqrt(p * (1.0 - p) / double(C)) + 8.0 / double(C));
      const std::uint64_t cut =
          q >= 1.0 ? ~std::uint64_t{0} : std::uint64_t(q * 18446744073709551616.0);
      cand.clear();
      for (std::int64_t j = 0; j < C; ++j)
        if (h[std::size_t(j)] <= cut) cand.emplace_back(h[std::size_t(j)], int(j));
      if (std::int64_t(cand.size()) < n) {
        cand.clear();
        for (std::int64_t j = 0; j < C; ++j) cand.emplace_back(h[std::size_t(j)], int(j));
      }
      std::nth_element(cand.begin(), cand.begin() + (n - 1), cand.end());
      nth = cand[std::size_t(n - 1)];
    }
    for (std::int64_t j = 0; j < C; ++j)
      if (std::pair<std::uint64_t, int>{h[std::size_t(j)], int(j)} <= nth)
        b.col_idx.push_back(int(j));
    b.row_ptr.push_back(int(b.col_idx.size()));
  }
  return b;
}

BlockMap cover_block_map(const BlockMap& mask, int r, int c) {
  if (mask.r != 1 || mask.c != 1) throw InputError("cover_block_map: the mask must be 1x1");
  if (r < 1 || c < 1 || r > 64 || c > 64) throw InputError("block size must be 1x1 to 64x64");
  BlockMap b;
  b.r = r;
  b.c = c;
  b.block_rows = (mask.block_rows + r - 1) / r;
  b.block_cols = (mask.block_cols + c - 1) / c;
  b.row_ptr.assign(std::size_t(b.block_rows) + 1, 0);
  std::vector<int> cols;
  for (std::int64_t br = 0; br < b.block_rows; ++br) {
    cols.clear();
    for (std::int64_t i = br * r; i < std::min(mask.block_rows, (br + 1) * r); ++i)
      for (int q = mask.row_ptr[std::size_t(i)]; q < mask.row_ptr[std::size_t(i) + 1]; ++q)
        cols.push_back(mask.col_idx[std::size_t(q)] / c);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    b.col_idx.insert(b.col_idx.end(), cols.begin(), cols.end());
    b.row_ptr[std::size_t(br) + 1] = int(b.col_idx.size());
  }
  return b;
}

}  // namespace stcsim
