#include "validation/calibrate/fit_error.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "validation/compare/statistics.h"

namespace stcsim::calibrate {

namespace {

bool contains(const std::vector<std::size_t>& v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

FitError fit_error(const std::vector<double>& predicted_us, const std::vector<double>& measured_us,
                   const std::vector<validation::SpeedupPair>& pairs,
                   const std::vector<std::size_t>& gemms) {
  FitError e;
  std::vector<double> p, m;
  for (std::size_t i : gemms) {
    p.push_back(predicted_us.at(i));
    m.push_back(measured_us.at(i));
  }
  e.gemms = int(p.size());
  e.mape_percent = p.empty() ? 0 : validation::mape_percent(p, m);
  double sum = 0;
  for (const auto& pair : pairs) {
    if (!contains(gemms, pair.sparse) || !contains(gemms, pair.dense)) continue;
    const double predicted = predicted_us.at(pair.dense) / predicted_us.at(pair.sparse);
    const double measured = measured_us.at(pair.dense) / measured_us.at(pair.sparse);
    sum += std::fabs(predicted - measured);
    ++e.pairs;
  }
  e.speedup_abs_error = e.pairs ? sum / e.pairs : 0;
  e.objective = e.mape_percent + kSpeedupErrorWeight * e.speedup_abs_error;
  return e;
}

std::vector<std::vector<std::size_t>> leave_out_units(
    const std::vector<std::size_t>& gemms, const std::vector<validation::SpeedupPair>& pairs) {
  // Union-find over the pairs: a dense run may be the twin of several 2:4 runs.
  std::map<std::size_t, std::size_t> parent;
  for (std::size_t g : gemms) parent[g] = g;
  auto root = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& pair : pairs)
    if (parent.count(pair.sparse) && parent.count(pair.dense)) {
      const std::size_t a = root(pair.sparse), b = root(pair.dense);
      parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<std::vector<std::size_t>> units;
  std::map<std::size_t, std::size_t> unit_of_root;
  for (std::size_t g : gemms) {
    const std::size_t r = root(g);
    auto [it, fresh] = unit_of_root.emplace(r, units.size());
    if (fresh) units.emplace_back();
    units[it->second].push_back(g);
  }
  return units;
}

}  // namespace stcsim::calibrate
