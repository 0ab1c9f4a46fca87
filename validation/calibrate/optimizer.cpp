#include "validation/calibrate/optimizer.h"

#include <algorithm>
#include <cmath>

namespace stcsim::calibrate {

namespace {

// Polls that move from `x` by `step` along the given directions (each a list of
// (coordinate, sign) pairs), snapped; those that snap back onto x or repeat are dropped.
std::vector<UnitPoint> polls(const UnitPoint& x, double step,
                             const std::vector<std::vector<std::pair<std::size_t, int>>>& dirs,
                             const std::vector<int>& integer_steps) {
  std::vector<UnitPoint> out;
  for (const auto& dir : dirs) {
    UnitPoint p = x;
    for (const auto& [i, sign] : dir) p[i] += sign * step;
    p = snap_to_box(p, integer_steps);
    if (p != x && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

std::vector<std::vector<std::pair<std::size_t, int>>> coordinate_directions(std::size_t n) {
  std::vector<std::vector<std::pair<std::size_t, int>>> d;
  for (std::size_t i = 0; i < n; ++i) {
    d.push_back({{i, +1}});
    d.push_back({{i, -1}});
  }
  return d;
}

std::vector<std::vector<std::pair<std::size_t, int>>> diagonal_directions(std::size_t n) {
  std::vector<std::vector<std::pair<std::size_t, int>>> d;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (int si : {+1, -1})
        for (int sj : {+1, -1}) d.push_back({{i, si}, {j, sj}});
  return d;
}

}  // namespace

UnitPoint snap_to_box(UnitPoint u, const std::vector<int>& integer_steps) {
  for (std::size_t i = 0; i < u.size(); ++i) {
    u[i] = std::clamp(u[i], 0.0, 1.0);
    const int steps = i < integer_steps.size() ? integer_steps[i] : 0;
    if (steps > 0) u[i] = std::round(u[i] * steps) / steps;
  }
  return u;
}

OptimizerResult minimize_in_box(const BatchObjective& f, const UnitPoint& start,
                                const OptimizerOptions& o) {
  std::map<UnitPoint, double> seen;
  OptimizerResult r;
  // Evaluates the points not seen yet (as many as the budget allows, in order) and
  // returns the values of those now known, paired with their points.
  auto evaluate = [&](const std::vector<UnitPoint>& points) {
    std::vector<UnitPoint> fresh;
    for (const auto& p : points)
      if (!seen.count(p) && r.evals + int(fresh.size()) < o.max_evals) fresh.push_back(p);
    if (!fresh.empty()) {
      const std::vector<double> values = f(fresh);
      for (std::size_t i = 0; i < fresh.size(); ++i) seen[fresh[i]] = values[i];
      r.evals += int(fresh.size());
    }
    std::vector<std::pair<UnitPoint, double>> known;
    for (const auto& p : points)
      if (auto it = seen.find(p); it != seen.end()) known.emplace_back(p, it->second);
    return std::make_pair(known, !fresh.empty());
  };
  auto report = [&](bool evaluated) {
    if (evaluated && o.on_progress) o.on_progress(r.evals, r.best_value, r.best);
  };

  r.best = snap_to_box(start, o.integer_steps);
  const auto [first, started] = evaluate({r.best});
  if (first.empty()) return r;  // a budget of zero
  r.best_value = first[0].second;
  report(started);

  const std::size_t n = r.best.size();
  const auto axes = coordinate_directions(n);
  const auto diagonals = diagonal_directions(n);
  double step = o.initial_step;
  while (step >= o.min_step) {
    bool moved = false;
    for (const auto* dirs : {&axes, &diagonals}) {
      const auto [known, evaluated] = evaluate(polls(r.best, step, *dirs, o.integer_steps));
      const auto best_poll =
          std::min_element(known.begin(), known.end(),
                           [](const auto& a, const auto& b) { return a.second < b.second; });
      if (best_poll != known.end() && best_poll->second < r.best_value) {
        r.best = best_poll->first;
        r.best_value = best_poll->second;
        moved = true;
      }
      report(evaluated);
      if (moved) break;
    }
    if (r.evals >= o.max_evals) return r;
    if (!moved) step /= 2;
  }
  r.converged = true;
  return r;
}

}  // namespace stcsim::calibrate
