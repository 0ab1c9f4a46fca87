#include "sim/core/nearest.h"

#include <algorithm>
#include <numeric>

namespace stcsim {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = ~std::size_t{0};
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(name, c);
    // A suffix match ("capacity" for "l2.capacity_mib") is a better hint than raw distance.
    if (c.size() > name.size() && c.compare(c.size() - name.size(), name.size(), name) == 0) d = 1;
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace stcsim
