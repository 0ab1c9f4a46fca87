#include "models/sparse/prune.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

template <typename T>
static std::vector<T> prune(const std::vector<T>& values, int rows, int cols, NmPattern p) {
  p.validate();
  if (rows < 0 || cols < 0 || values.size() != std::size_t(rows) * std::size_t(cols))
    throw std::invalid_argument("prune_magnitude: " + std::to_string(values.size()) +
                                " values for a " + std::to_string(rows) + "x" +
                                std::to_string(cols) + " matrix");
  if (cols % p.m)
    throw InputError("prune to " + p.str() + ": K = " + std::to_string(cols) +
                     " is not a multiple of " + std::to_string(p.m));
  // a ranks before b: larger magnitude (NaN largest), then lower index.
  auto before = [](T a, int ia, T b, int ib) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na != nb) return na;
    if (!na && std::fabs(a) != std::fabs(b)) return std::fabs(a) > std::fabs(b);
    return ia < ib;
  };
  std::vector<T> out(values.size(), T(0));
  std::vector<int> order(p.m);
  for (std::size_t base = 0; base < values.size(); base += p.m) {
    for (int i = 0; i < p.m; ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return before(values[base + a], a, values[base + b], b); });
    for (int j = 0; j < p.n; ++j) out[base + order[j]] = values[base + order[j]];
  }
  return out;
}

std::vector<double> prune_magnitude(const std::vector<double>& values, int rows, int cols,
                                    NmPattern pattern) {
  return prune(values, rows, cols, pattern);
}

std::vector<float> prune_magnitude(const std::vector<float>& values, int rows, int cols,
                                   NmPattern pattern) {
  return prune(values, rows, cols, pattern);
}

}  // namespace stcsim::sparse
