// Agreement statistics between predicted and measured values (times, speedups).
// All throw InputError on vectors of different or too small sizes.
#pragma once
#include <vector>

namespace stcsim::validation {

// Mean absolute percentage error, in percent: 100/n * sum |p - m| / |m|. Needs n >= 1 and
// every measured value nonzero.
double mape_percent(const std::vector<double>& predicted, const std::vector<double>& measured);

// Pearson's correlation coefficient; NaN when either vector is constant. Needs n >= 2.
double pearson(const std::vector<double>& x, const std::vector<double>& y);

// Ranks 1..n, ties sharing the average of their ranks.
std::vector<double> average_ranks(const std::vector<double>& x);

// Spearman's rank correlation: Pearson's of the average ranks (exact with ties).
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace stcsim::validation
