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

}  // namespace stcsim::functional::testing
