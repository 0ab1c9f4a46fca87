// Box-constrained, derivative-free minimisation for `stcsim calibrate`: a pattern search
// (compass search with complete polling) in the unit box [0,1]^n. The objective there is
// a simulator's error, piecewise constant in integer parameters and kinked where a
// prediction crosses its measurement, so no gradient is used and every step is a
// comparison of evaluated points. Deterministic: the same start and objective give the
// same points in the same order. Points are evaluated in batches (one poll at a time), so
// the caller can run a batch's simulations side by side.
#pragma once
#include <functional>
#include <map>
#include <vector>

namespace stcsim::calibrate {

using UnitPoint = std::vector<double>;  // one coordinate per parameter, each in [0,1]

// The objective at each point of a batch (same order).
using BatchObjective = std::function<std::vector<double>(const std::vector<UnitPoint>&)>;

struct OptimizerOptions {
  // Distinct points evaluated, the start included; points seen before cost nothing.
  int max_evals = 60;
  double initial_step = 0.25;     // first poll distance, in unit coordinates
  double min_step = 1.0 / 512.0;  // stop once the step is below this
  // Per coordinate: 0 for a continuous parameter, else the number of integer steps across
  // the box (hi - lo); points are snapped to that grid.
  std::vector<int> integer_steps;
  // Called after each batch: points evaluated so far, the best value and point.
  std::function<void(int evals, double best, const UnitPoint& at)> on_progress;
};

struct OptimizerResult {
  UnitPoint best;
  double best_value = 0;
  int evals = 0;           // distinct points evaluated
  bool converged = false;  // the step fell below min_step (false: the budget ran out)
};

// Starts at `start` (clamped and snapped). Each iteration polls x +- step along every
// coordinate; when none improves, also along the pairwise diagonals (x +- step e_i +-
// step e_j), which get past the kinks of a sum of absolute errors that the coordinate
// directions alone stall on; when neither improves, the step halves. The best poll
// (lowest value, the first such in poll order on ties) is taken when it improves.
OptimizerResult minimize_in_box(const BatchObjective& f, const UnitPoint& start,
                                const OptimizerOptions& options);

// `u` clamped to [0,1] and rounded to the integer grid where `integer_steps` has one.
UnitPoint snap_to_box(UnitPoint u, const std::vector<int>& integer_steps);

}  // namespace stcsim::calibrate
