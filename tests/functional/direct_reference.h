// The logical-matrix reference the functional tests compare against, written straight
// on numerics::mma_dot / mma_dot_int (not through the library's mma_reference):
// d[i][j] = dot(A row i, B column j) + c[i][j], products in increasing k.
#pragma once
#include <cstdint>
#include <vector>

#include "models/functional/mma_types.h"
#include "models/numerics/mma_dot.h"

namespace stcsim::functional::testing {

inline std::vector<std::uint32_t> direct_reference(MmaType t, int m, int n, int k,
                                                   const std::vector<std::uint32_t>& a,
                                                   const std::vector<std::uint32_t>& b,
                                                   const std::vector<std::uint32_t>& c,
                                                   const numerics::AccumulationModel& model) {
  std::vector<std::uint32_t> d(std::size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      std::vector<std::uint32_t> ra(k), cb(k);
      std::vector<std::int32_t> ia(k), ib(k);
      for (int x = 0; x < k; ++x) {
        ra[x] = a[i * k + x];
        cb[x] = b[x * n + j];
        ia[x] = std::int8_t(ra[x] & 0xFF);
        ib[x] = std::int8_t(cb[x] & 0xFF);
      }
      d[i * n + j] = t == MmaType::S8 ? std::uint32_t(numerics::mma_dot_int(
                                            ia.data(), ib.data(), k, std::int32_t(c[i * n + j])))
                                      : numerics::mma_dot(float_format(t), ra.data(), cb.data(), k,
                                                          c[i * n + j], model);
    }
  return d;
}

// A sparse A the way mma.sp multiplies it: for each row only the kept values (the
// positions sparse::compress keeps, zeros included when a group is short), each with the
// B row at its position, in increasing k; the pruned positions never reach the dot product.
// Blocks of kept products, or with sparse_blocks_by_position of K positions (a pruned one a
// 0 x 0 product, which no model adds).
inline std::vector<std::uint32_t> direct_sparse_reference(
    MmaType t, int m, int n, int k, const std::vector<std::uint32_t>& a,
    const std::vector<int>& kept_positions, const std::vector<std::uint32_t>& b,
    const std::vector<std::uint32_t>& c, const numerics::AccumulationModel& model) {
  const int kept = int(kept_positions.size()) / m;
  std::vector<std::uint32_t> d(std::size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      std::vector<std::uint32_t> ra, cb;
      if (model.sparse_blocks_by_position) ra.assign(k, 0), cb.assign(k, 0);
      for (int s = 0; s < kept; ++s) {
        const int x = kept_positions[std::size_t(i) * kept + s];
        if (model.sparse_blocks_by_position) {
          ra[x] = a[std::size_t(i) * k + x], cb[x] = b[std::size_t(x) * n + j];
        } else {
          ra.push_back(a[std::size_t(i) * k + x]);
          cb.push_back(b[std::size_t(x) * n + j]);
        }
      }
      d[i * n + j] = numerics::mma_dot(float_format(t), ra.data(), cb.data(), int(ra.size()),
                                       c[i * n + j], model);
    }
  return d;
}

}  // namespace stcsim::functional::testing
