// The residual report of `stcsim calibrate` (residuals.txt and residuals.json): per
// measured GEMM the measured time and the times predicted before the fit (the arch's
// values), after it (in-sample) and by the leave-one-out refit that did not see it; the
// same for the 2:4 speedups; and the summary that puts in-sample and leave-one-out error
// side by side, since the first alone cannot show over-fitting.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/calibrate/calibration_run.h"

namespace stcsim::calibrate {

std::string format_residuals(const CalibrationResult& r);
nlohmann::json residuals_json(const CalibrationResult& r);

// The summary's three columns in one line each: "time MAPE 12.3% before, 0.4% in-sample,
// 0.9% leave-one-out" and the speedup error the same way ("" without pairs).
std::string time_error_line(const CalibrationResult& r);
std::string speedup_error_line(const CalibrationResult& r);

// One line per fitted value at an end of its range (within 0.5% of it): the best value may
// lie beyond, and the range, not the data, chose it.
std::vector<std::string> edge_warnings(const CalibrationResult& r);

}  // namespace stcsim::calibrate
