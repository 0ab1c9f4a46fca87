// `stcsim calibrate`'s search and objective on analytic functions and numbers worked by
// hand: the box-constrained minimum is found, bounds and integer grids are respected, the
// same inputs give the same points, no point is evaluated twice, the budget holds; the
// objective weighs speedups as documented; leave-one-out keeps dense/2:4 pairs together.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "validation/calibrate/fit_error.h"
#include "validation/calibrate/optimizer.h"

using namespace stcsim;
using namespace stcsim::calibrate;

namespace {

// An objective that records every point it is asked for.
struct Recorder {
  std::function<double(const UnitPoint&)> f;
  std::vector<UnitPoint> asked;
  BatchObjective batch() {
    return [this](const std::vector<UnitPoint>& points) {
      std::vector<double> v;
      for (const auto& p : points) {
        asked.push_back(p);
        v.push_back(f(p));
      }
      return v;
    };
  }
};

double sq(double x) { return x * x; }

}  // namespace

TEST_CASE("optimizer_finds_interior_minimum_of_quadratic", "[validation]") {
  Recorder rec{[](const UnitPoint& u) { return sq(u[0] - 0.3) + 4 * sq(u[1] - 0.71); }, {}};
  OptimizerOptions o;
  o.max_evals = 200;
  const OptimizerResult r = minimize_in_box(rec.batch(), {0.9, 0.1}, o);
  CHECK(r.converged);
  CHECK(r.best[0] == Approx(0.3).margin(2 * o.min_step));
  CHECK(r.best[1] == Approx(0.71).margin(2 * o.min_step));
  CHECK(r.evals == int(rec.asked.size()));
  CHECK(r.evals <= o.max_evals);
  // Every point once, and inside the box.
  CHECK(std::set<UnitPoint>(rec.asked.begin(), rec.asked.end()).size() == rec.asked.size());
  for (const auto& p : rec.asked)
    for (double x : p) CHECK((x >= 0 && x <= 1));
}

TEST_CASE("optimizer_stops_at_the_box_when_the_minimum_lies_outside", "[validation]") {
  // Unconstrained minimum at (1.4, -0.2): the box's corner (1, 0) is the answer.
  Recorder rec{[](const UnitPoint& u) { return sq(u[0] - 1.4) + sq(u[1] + 0.2); }, {}};
  OptimizerOptions o;
  o.max_evals = 200;
  const OptimizerResult r = minimize_in_box(rec.batch(), {0.5, 0.5}, o);
  CHECK(r.best == UnitPoint{1.0, 0.0});
  for (const auto& p : rec.asked)
    for (double x : p) CHECK((x >= 0 && x <= 1));
}

TEST_CASE("optimizer_keeps_integer_parameters_on_their_grid", "[validation]") {
  // Coordinate 0 is an integer parameter with 10 steps across its box: the continuous
  // minimum 0.33 rounds to the grid point 0.3; coordinate 1 is continuous.
  Recorder rec{[](const UnitPoint& u) { return std::fabs(u[0] - 0.33) + sq(u[1] - 0.5); }, {}};
  OptimizerOptions o;
  o.max_evals = 200;
  o.integer_steps = {10, 0};
  const OptimizerResult r = minimize_in_box(rec.batch(), {0.95, 0.0}, o);
  CHECK(r.best[0] == Approx(0.3));
  CHECK(r.best[1] == Approx(0.5).margin(2 * o.min_step));
  for (const auto& p : rec.asked) {
    const double steps = p[0] * 10;
    CHECK(steps == Approx(std::round(steps)).margin(1e-12));
  }
}

TEST_CASE("optimizer_follows_a_diagonal_kink", "[validation]") {
  // A sum of absolute errors whose valley runs along x = y: no move along one coordinate
  // improves on (0.1, 0.1), the diagonal poll does. Minimum at (0.6, 0.6).
  Recorder rec{
      [](const UnitPoint& u) { return 10 * std::fabs(u[0] - u[1]) + std::fabs(u[0] + u[1] - 1.2); },
      {}};
  OptimizerOptions o;
  o.max_evals = 300;
  const OptimizerResult r = minimize_in_box(rec.batch(), {0.1, 0.1}, o);
  CHECK(r.best[0] == Approx(0.6).margin(4 * o.min_step));
  CHECK(r.best[1] == Approx(0.6).margin(4 * o.min_step));
}

TEST_CASE("optimizer_is_deterministic_and_keeps_its_budget", "[validation]") {
  auto f = [](const UnitPoint& u) {
    return std::fabs(u[0] - 0.2) + std::fabs(u[1] - 0.8) + std::fabs(u[2] - 0.55);
  };
  Recorder a{f, {}}, b{f, {}};
  OptimizerOptions o;
  o.max_evals = 25;
  const OptimizerResult ra = minimize_in_box(a.batch(), {0.5, 0.5, 0.5}, o);
  const OptimizerResult rb = minimize_in_box(b.batch(), {0.5, 0.5, 0.5}, o);
  CHECK(a.asked == b.asked);
  CHECK(ra.best == rb.best);
  CHECK(ra.evals == 25);
  CHECK(a.asked.size() == 25);
  CHECK_FALSE(ra.converged);
  // Progress is reported after each batch with the running best.
  int calls = 0;
  double last = 1e9;
  o.on_progress = [&](int evals, double best, const UnitPoint&) {
    ++calls;
    CHECK(evals <= 25);
    CHECK(best <= last);
    last = best;
  };
  Recorder c{f, {}};
  minimize_in_box(c.batch(), {0.5, 0.5, 0.5}, o);
  CHECK(calls > 1);
  CHECK(last == Approx(ra.best_value));
}

TEST_CASE("fit_error_weighs_speedup_error_like_time_error", "[validation]") {
  // Rows 0 (dense) and 1 (2:4) are a pair; row 2 alone. Times off by +10%, -10%, +20%:
  // MAPE 13.33%. Speedup measured 10/5 = 2, predicted 11/4.5 = 2.444: error 0.444.
  const std::vector<double> measured{10, 5, 20}, predicted{11, 4.5, 24};
  const std::vector<validation::SpeedupPair> pairs{{1, 0}};
  const FitError all = fit_error(predicted, measured, pairs, {0, 1, 2});
  CHECK(all.gemms == 3);
  CHECK(all.mape_percent == Approx(40.0 / 3));
  CHECK(all.pairs == 1);
  CHECK(all.speedup_abs_error == Approx(11 / 4.5 - 2));
  CHECK(all.objective == Approx(40.0 / 3 + 100 * (11 / 4.5 - 2)));
  // Without the dense row the pair does not count.
  const FitError part = fit_error(predicted, measured, pairs, {1, 2});
  CHECK(part.pairs == 0);
  CHECK(part.objective == Approx(15.0));
}

TEST_CASE("leave_one_out_units_keep_pairs_together", "[validation]") {
  // Rows 0..5: 1 is the 2:4 twin of 0; 4 and 5 are both 2:4 runs over the dense row 3.
  const std::vector<validation::SpeedupPair> pairs{{1, 0}, {4, 3}, {5, 3}};
  const auto units = leave_out_units({0, 1, 2, 3, 4, 5}, pairs);
  REQUIRE(units.size() == 3);
  CHECK(units[0] == std::vector<std::size_t>{0, 1});
  CHECK(units[1] == std::vector<std::size_t>{2});
  CHECK(units[2] == std::vector<std::size_t>{3, 4, 5});
}
