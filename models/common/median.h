// The median of a set of samples (the mean of the middle two for an even count), one
// definition for the model's and the GPU harness's figures. Header-only: the CUDA harness
// includes it without the model's library.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace stcsim {

// NaN for no samples: callers that report 0 there say so.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace stcsim
