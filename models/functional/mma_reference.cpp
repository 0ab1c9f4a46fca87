#include "models/functional/mma_reference.h"

#include <string>

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

}  // namespace stcsim::functional
