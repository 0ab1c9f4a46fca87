#include "models/sparse/nm_compress.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

static void check_shape(int rows, int cols, NmPattern p) {
  p.validate();
  if (rows < 0 || cols < 0)
    throw std::invalid_argument("compress: negative shape " + std::to_string(rows) + "x" +
                                std::to_string(cols));
  if (cols % p.m)
    throw InputError("N:M " + p.str() + ": K = " + std::to_string(cols) +
                     " columns is not a multiple of M = " + std::to_string(p.m));
}

CompressedNm compress(const std::vector<std::uint32_t>& dense, int rows, int cols,
                      NmPattern pattern) {
  check_shape(rows, cols, pattern);
  if (dense.size() != std::size_t(rows) * cols)
    throw std::invalid_argument("compress: " + std::to_string(dense.size()) + " elements for a " +
                                std::to_string(rows) + "x" + std::to_string(cols) + " matrix");
  const int n = pattern.n, m = pattern.m;
  CompressedNm c{rows, cols, pattern, {}, {}};
  c.values.reserve(std::size_t(rows) * c.kept_cols());
  c.indices.reserve(c.values.capacity());
  std::vector<int> keep;
  for (int r = 0; r < rows; ++r) {
    for (int g = 0; g < c.groups_per_row(); ++g) {
      const std::uint32_t* grp = &dense[std::size_t(r) * cols + std::size_t(g) * m];
      keep.clear();
      for (int i = 0; i < m; ++i)
        if (grp[i] != 0) keep.push_back(i);
      if (int(keep.size()) > n)
        throw InputError("matrix is not " + pattern.str() + " sparse: row " + std::to_string(r) +
                         ", group " + std::to_string(g) + " (columns " + std::to_string(g * m) +
                         ".." + std::to_string(g * m + m - 1) + ") has " +
                         std::to_string(keep.size()) + " nonzero elements, at most " +
                         std::to_string(n) + " allowed");
      // Padding: highest-index zero positions first (see header).
      for (int i = m - 1; i >= 0 && int(keep.size()) < n; --i)
        if (grp[i] == 0) keep.push_back(i);
      std::sort(keep.begin(), keep.end());
      for (int i : keep) {
        c.values.push_back(grp[i]);
        c.indices.push_back(std::uint8_t(i));
      }
    }
  }
  return c;
}

void validate(const CompressedNm& c) {
  check_shape(c.rows, c.cols, c.pattern);
  const std::size_t want = std::size_t(c.rows) * c.kept_cols();
  if (c.values.size() != want || c.indices.size() != want)
    throw InputError("compressed " + c.pattern.str() + " matrix " + std::to_string(c.rows) + "x" +
                     std::to_string(c.cols) + " needs " + std::to_string(want) +
                     " kept values and indices, has " + std::to_string(c.values.size()) + " and " +
                     std::to_string(c.indices.size()));
  const int n = c.pattern.n, m = c.pattern.m;
  for (int r = 0; r < c.rows; ++r)
    for (int g = 0; g < c.groups_per_row(); ++g) {
      unsigned seen = 0;  // bit i: position i taken (m <= 8)
      for (int j = 0; j < n; ++j) {
        const int idx = c.indices[std::size_t(r) * c.kept_cols() + std::size_t(g) * n + j];
        const std::string where = "row " + std::to_string(r) + ", group " + std::to_string(g) +
                                  ", kept element " + std::to_string(j) + ": ";
        if (idx >= m)
          throw InputError(where + "index " + std::to_string(idx) + " is outside a group of " +
                           std::to_string(m));
        if (seen & (1u << idx))
          throw InputError(where + "position " + std::to_string(idx) + " is already taken");
        seen |= 1u << idx;
      }
    }
}

std::vector<std::uint32_t> uncompress(const CompressedNm& c) {
  validate(c);
  std::vector<std::uint32_t> dense(std::size_t(c.rows) * c.cols, 0);
  const int n = c.pattern.n, m = c.pattern.m, kc = c.kept_cols();
  for (int r = 0; r < c.rows; ++r)
    for (int j = 0; j < kc; ++j) {
      const std::size_t k = std::size_t(r) * kc + j;
      dense[std::size_t(r) * c.cols + std::size_t(j / n) * m + c.indices[k]] = c.values[k];
    }
  return dense;
}

}  // namespace stcsim::sparse
