// fit_link (models/common/link_fit.h), which the model's and the GPU's one-SM cp.async
// sweeps share: the line through a group's time against its bytes, on sweeps worked out
// by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "models/common/link_fit.h"

using stcsim::fit_link;

TEST_CASE("link_fit_recovers_the_link_and_the_round_trip_of_an_exact_line", "[unit][link_fit]") {
  // Groups of 4 to 128 KiB over a 40 B/clk link after a 300-cycle round trip; the 4 and
  // 8 KiB groups are below the fit's threshold and are given a wrong rate to prove it.
  const std::vector<double> bytes = {4096, 8192, 16384, 32768, 65536, 131072};
  std::vector<double> rates;
  for (double g : bytes) rates.push_back(g / (300 + g / 40));
  rates[0] = rates[1] = 1;  // ignored
  const auto f = fit_link(bytes, rates);
  CHECK(f.bytes_per_cycle == Approx(40).epsilon(1e-9));
  CHECK(f.round_trip_cycles == Approx(300).epsilon(1e-9));
}

TEST_CASE("link_fit_averages_noise_by_least_squares", "[unit][link_fit]") {
  // Times 700 (16 KiB), 1,100 (32 KiB), 1,700 (64 KiB), not on one line: the
  // least-squares slope is 1 / 49.864 cycles a byte and the intercept exactly 400.
  const std::vector<double> bytes = {16384, 32768, 65536};
  const std::vector<double> rates = {16384.0 / 700, 32768.0 / 1100, 65536.0 / 1700};
  const auto f = fit_link(bytes, rates);
  // Sums: n 3, sx 114688, sy 3500, sxx 5637144576, sxy 158924800.
  const double slope = (3 * 158924800.0 - 114688.0 * 3500) / (3 * 5637144576.0 - 114688.0 * 114688);
  CHECK(f.bytes_per_cycle == Approx(1 / slope).epsilon(1e-9));
  CHECK(f.bytes_per_cycle == Approx(49.864).epsilon(1e-4));
  CHECK(f.round_trip_cycles == Approx(400).epsilon(1e-9));
}

TEST_CASE("link_fit_gives_no_line_without_two_points_or_a_rising_time", "[unit][link_fit]") {
  // One qualifying point.
  auto f = fit_link({4096, 16384}, {10, 30});
  CHECK(std::isnan(f.bytes_per_cycle));
  CHECK(std::isnan(f.round_trip_cycles));
  // Times that fall as the bytes grow: no link.
  f = fit_link({16384, 32768}, {16384.0 / 900, 32768.0 / 800});
  CHECK(std::isnan(f.bytes_per_cycle));
  // Failed samples (a rate of 0, a NaN median of no samples) are left out, not divided by.
  f = fit_link({16384, 16384, 32768, 65536},
               {0, NAN, 32768.0 / (300 + 32768 / 64.0), 65536.0 / (300 + 1024)});
  CHECK(f.bytes_per_cycle == Approx(64).epsilon(1e-9));
}
