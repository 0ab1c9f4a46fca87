#include "models/functional/sparse_dot.h"

#include <vector>

#include "models/numerics/mma_dot.h"

namespace stcsim::functional {

std::uint32_t sparse_dot(numerics::FloatFormat f, const std::uint32_t* kept_values,
                         const int* positions, int kept, const std::uint32_t* other, int k,
                         std::uint32_t c, const numerics::AccumulationModel& model) {
  if (model.sparse_blocks_by_position) {
    // Every position in the block layout; a pruned one is a zero product (0 x 0: no term).
    std::vector<std::uint32_t> a(static_cast<std::size_t>(k), 0), b(a);
    for (int s = 0; s < kept; ++s) {
      a[std::size_t(positions[s])] = kept_values[s];
      b[std::size_t(positions[s])] = other[positions[s]];
    }
    return numerics::mma_dot(f, a.data(), b.data(), k, c, model);
  }
  std::vector<std::uint32_t> b(static_cast<std::size_t>(kept));
  for (int s = 0; s < kept; ++s) b[std::size_t(s)] = other[positions[s]];
  return numerics::mma_dot(f, kept_values, b.data(), kept, c, model);
}

}  // namespace stcsim::functional
