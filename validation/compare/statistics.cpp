#include "validation/compare/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::validation {

namespace {
void check_sizes(const std::vector<double>& x, const std::vector<double>& y, std::size_t min_n,
                 const char* what) {
  if (x.size() != y.size() || x.size() < min_n)
    throw InputError(std::string(what) +
                     ": needs two series of equal length >= " + std::to_string(min_n) + " (got " +
                     std::to_string(x.size()) + " and " + std::to_string(y.size()) + ")");
}
}  // namespace

double mape_percent(const std::vector<double>& predicted, const std::vector<double>& measured) {
  check_sizes(predicted, measured, 1, "MAPE");
  double sum = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    if (measured[i] == 0)
      throw InputError("MAPE: measured value " + std::to_string(i) + " is zero");
    sum += std::fabs(predicted[i] - measured[i]) / std::fabs(measured[i]);
  }
  return 100.0 * sum / double(measured.size());
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  check_sizes(x, y, 2, "Pearson correlation");
  const double n = double(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0 || syy == 0) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

std::vector<double> average_ranks(const std::vector<double>& x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> rank(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double r = (double(i) + double(j)) / 2.0 + 1.0;  // average of ranks i+1 .. j+1
    for (std::size_t t = i; t <= j; ++t) rank[order[t]] = r;
    i = j + 1;
  }
  return rank;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  check_sizes(x, y, 2, "Spearman correlation");
  return pearson(average_ranks(x), average_ranks(y));
}

}  // namespace stcsim::validation
