#include "models/functional/mma_reference.h"

#include <algorithm>
#include <string>
#include <utility>

#include "models/functional/sparse_dot.h"
#include "models/numerics/mma_dot.h"
#include "sim/core/input_error.h"

namespace stcsim::functional {

std::vector<std::uint32_t> mma_reference(MmaType t, int m, int n, int k,
                                         const std::vector<std::uint32_t>& a,
                                         const std::vector<std::uint32_t>& b,
                                         const std::vector<std::uint32_t>& c,
                                         const numerics::AccumulationModel& model) {
  if (a.size() != std::size_t(m) * k || b.size() != std::size_t(k) * n ||
      c.size() != std::size_t(m) * n)
    throw InputError("mma_reference: operand sizes do not match " + std::to_string(m) + "x" +
                     std::to_string(n) + "x" + std::to_string(k));
  std::vector<std::uint32_t> d(std::size_t(m) * n);
  std::vector<std::uint32_t> row(k), col(k);
  std::vector<std::int32_t> irow(k), icol(k);
  const bool integer = t == MmaType::S8;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int x = 0; x < k; ++x) {
        row[x] = a[std::size_t(i) * k + x];
        col[x] = b[std::size_t(x) * n + j];
        irow[x] = std::int8_t(std::uint8_t(row[x]));
        icol[x] = std::int8_t(std::uint8_t(col[x]));
      }
      const std::uint32_t acc = c[std::size_t(i) * n + j];
      d[std::size_t(i) * n + j] =
          integer
              ? std::uint32_t(numerics::mma_dot_int(irow.data(), icol.data(), k, std::int32_t(acc)))
              : numerics::mma_dot(float_format(t), row.data(), col.data(), k, acc, model);
    }
  }
  return d;
}

std::vector<std::uint32_t> mma_sp_reference(MmaType t, int n, const sparse::CompressedNm& a,
                                            const std::vector<std::uint32_t>& b,
                                            const std::vector<std::uint32_t>& c,
                                            const numerics::AccumulationModel& model) {
  sparse::validate(a);
  const int m = a.rows, k = a.cols, kept = a.kept_cols();
  if (b.size() != std::size_t(k) * n || c.size() != std::size_t(m) * n)
    throw InputError("mma_sp_reference: operand sizes do not match " + std::to_string(m) + "x" +
                     std::to_string(n) + "x" + std::to_string(k));
  if (t == MmaType::S8) {  // exact integer sums: the pruned zeros change nothing
    return mma_reference(t, m, n, k, sparse::uncompress(a), b, c, model);
  }
  std::vector<std::uint32_t> d(std::size_t(m) * n);
  std::vector<std::uint32_t> row(kept), col(k);
  std::vector<std::pair<int, std::uint32_t>> slot(kept);  // (position along K, value)
  std::vector<int> position(kept);
  for (int i = 0; i < m; ++i) {
    for (int s = 0; s < kept; ++s)
      slot[s] = {s / a.pattern.n * a.pattern.m + a.indices[std::size_t(i) * kept + s],
                 a.values[std::size_t(i) * kept + s]};
    // Unordered metadata may name a group's two positions in either order: increasing k.
    std::sort(slot.begin(), slot.end());
    for (int s = 0; s < kept; ++s) position[s] = slot[s].first, row[s] = slot[s].second;
    for (int j = 0; j < n; ++j) {
      for (int x = 0; x < k; ++x) col[x] = b[std::size_t(x) * n + j];
      d[std::size_t(i) * n + j] = sparse_dot(float_format(t), row.data(), position.data(), kept,
                                             col.data(), k, c[std::size_t(i) * n + j], model);
    }
  }
  return d;
}

}  // namespace stcsim::functional
