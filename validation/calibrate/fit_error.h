// What `stcsim calibrate` minimises over a set of measured GEMMs: the mean absolute
// percentage error of time, plus, where dense and 2:4 runs of the same GEMM were both
// measured, the mean absolute error of the 2:4 speedup weighted so that a speedup off by
// 0.10 counts as much as a time off by 10%. Without the speedup term a fit could match
// every time on average while getting the dense/2:4 ratio, the figure sparse studies
// quote, wrong.
#pragma once
#include <cstddef>
#include <vector>

#include "validation/compare/report.h"

namespace stcsim::calibrate {

// Percentage points of objective per unit of 2:4 speedup error (0.10 -> 10).
inline constexpr double kSpeedupErrorWeight = 100.0;

struct FitError {
  int gemms = 0;
  double mape_percent = 0;
  int pairs = 0;                 // dense/2:4 pairs with both runs among the GEMMs
  double speedup_abs_error = 0;  // mean |predicted - measured| speedup; 0 without pairs
  double objective = 0;          // mape_percent + kSpeedupErrorWeight * speedup_abs_error
};

// The error over `gemms` (row indexes into predicted_us and measured_us); a pair counts
// when both its rows are among them.
FitError fit_error(const std::vector<double>& predicted_us, const std::vector<double>& measured_us,
                   const std::vector<validation::SpeedupPair>& pairs,
                   const std::vector<std::size_t>& gemms);

// The units leave-one-out leaves out: each GEMM alone, except that GEMMs joined by a
// speedup pair (a dense run and its 2:4 runs) go together, so the speedup left out is
// predicted by a fit that saw neither of its runs. In order of their first row.
std::vector<std::vector<std::size_t>> leave_out_units(
    const std::vector<std::size_t>& gemms, const std::vector<validation::SpeedupPair>& pairs);

}  // namespace stcsim::calibrate
