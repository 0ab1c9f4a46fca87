#include "sim/sweep/screen.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "sim/core/input_error.h"

namespace stcsim::sweep {

SweepSpec screening_spec(const SweepSpec& spec) {
  for (const auto& a : spec.axes)
    for (const auto& k : a.keys)
      if (k == "mode")
        throw InputError(spec.file +
                         ": --screen runs every point in analytic mode, then the best "
                         "in cycle mode; the spec varies 'mode' itself");
  SweepSpec s = spec;
  s.mode = "analytic";
  return s;
}

std::set<std::int64_t> best_points(const nlohmann::json& results, int n, std::int64_t reference) {
  struct Score {
    double log_sum = 0;
    int count = 0;
    bool failed = false;
  };
  std::map<std::int64_t, Score> by_point;
  for (const auto& row : results.at("rows")) {
    Score& s = by_point[row.at("point").get<std::int64_t>()];
    const double speedup = row.value("speedup_vs_ref", 0.0);
    if (row.value("status", std::string("failed")) != "ok" || !(speedup > 0)) {
      s.failed = true;
      continue;
    }
    s.log_sum += std::log(speedup);
    ++s.count;
  }
  std::vector<std::pair<double, std::int64_t>> ranked;  // (-geomean, id): best first
  for (const auto& [id, s] : by_point)
    ranked.emplace_back(s.failed || s.count == 0 ? INFINITY : -s.log_sum / s.count, id);
  std::sort(ranked.begin(), ranked.end());
  std::set<std::int64_t> out{reference};
  for (std::size_t i = 0; i < ranked.size() && int(i) < n; ++i)
    if (std::isfinite(ranked[i].first)) out.insert(ranked[i].second);
  return out;
}

}  // namespace stcsim::sweep
