// The agreement statistics of `stcsim validate` on numbers worked by hand.
#include <catch2/catch.hpp>
#include <cmath>

#include "sim/core/input_error.h"
#include "validation/compare/statistics.h"

using namespace stcsim;
using namespace stcsim::validation;

TEST_CASE("mape_of_known_errors", "[validation]") {
  // Errors of 10%, 5%, 10%, 5%: MAPE 7.5%.
  CHECK(mape_percent({110, 190, 330, 380}, {100, 200, 300, 400}) == Approx(7.5).epsilon(1e-12));
  CHECK(mape_percent({100}, {100}) == 0.0);
  // Over- and under-prediction count alike.
  CHECK(mape_percent({50, 150}, {100, 100}) == Approx(50.0));
  CHECK_THROWS_AS(mape_percent({1}, {0}), InputError);
  CHECK_THROWS_AS(mape_percent({1, 2}, {1}), InputError);
  CHECK_THROWS_AS(mape_percent({}, {}), InputError);
}

TEST_CASE("pearson_of_known_series", "[validation]") {
  // Deviations from the means (252.5, 250): sxy = 47500, sxx = 46475, syy = 50000.
  CHECK(pearson({110, 190, 330, 380}, {100, 200, 300, 400}) ==
        Approx(47500.0 / std::sqrt(46475.0 * 50000.0)).epsilon(1e-12));
  CHECK(pearson({1, 2, 3}, {2, 4, 6}) == Approx(1.0));
  CHECK(pearson({1, 2, 3}, {3, 2, 1}) == Approx(-1.0));
  CHECK(std::isnan(pearson({1, 1, 1}, {1, 2, 3})));  // constant series: undefined
  CHECK_THROWS_AS(pearson({1}, {1}), InputError);
}

TEST_CASE("spearman_with_and_without_ties", "[validation]") {
  CHECK(spearman({110, 190, 330, 380}, {100, 200, 300, 400}) == Approx(1.0));
  CHECK(spearman({1, 10, 100, 1000}, {4, 3, 2, 1}) == Approx(-1.0));
  // Monotone but not linear: Spearman 1, Pearson below 1.
  CHECK(spearman({1, 2, 3, 4}, {1, 10, 100, 1000}) == Approx(1.0));
  CHECK(pearson({1, 2, 3, 4}, {1, 10, 100, 1000}) < 0.9);
  // Ties share their average rank: x ranks {1, 2.5, 2.5, 4, 5}.
  const std::vector<double> r = average_ranks({1, 2, 2, 3, 5});
  CHECK(r == std::vector<double>{1, 2.5, 2.5, 4, 5});
  CHECK(spearman({1, 2, 2, 3, 5}, {2, 1, 4, 3, 5}) ==
        Approx(pearson({1, 2.5, 2.5, 4, 5}, {2, 1, 4, 3, 5})));
  CHECK(spearman({1, 2, 2, 3, 5}, {2, 1, 4, 3, 5}) == Approx(0.6668859288553503).epsilon(1e-12));
}
