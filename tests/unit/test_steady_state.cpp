// The steady-state detector (models/sm/steady_state.h) on dispatch sequences made by hand:
// where it cuts, the period it reports, and when it refuses.
#include <catch2/catch.hpp>

#include "models/sm/steady_state.h"

using namespace stcsim;

namespace {

// Feeds `ctas` dispatches on `slots` slots: the first wave at 0, then CTA i at
// time(i); returns the first cut.
template <class F>
std::optional<SteadyCut> feed(SteadyStateDetector& d, std::size_t ctas, std::size_t slots, F time,
                              std::size_t* fed = nullptr) {
  for (std::size_t i = 0; i < ctas; ++i) {
    const Cycle t = i < slots ? 0 : time(i);
    if (auto c = d.on_dispatch(i, t)) {
      if (fed) *fed = i + 1;
      return c;
    }
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("steady_state_cuts_a_one_wave_period_at_a_whole_number_of_periods", "[steady]") {
  // 10 slots, 100 CTAs; from wave 1 on, CTA i goes out at 1000 x wave + 7 x (i mod 10).
  SteadyStateDetector d(100, 10);
  std::size_t fed = 0;
  const auto c = feed(
      d, 100, 10, [](std::size_t i) { return Cycle(1000 * (i / 10) + 7 * (i % 10)); }, &fed);
  REQUIRE(c);
  // Warm-up 2 waves, then three periods of 1 wave: found at the dispatch closing wave 4
  // (index 49): waves 3 and 4 each 1000 after waves 2 and 3, which are 1000 after 1 and 2.
  CHECK(c->mark == 49);
  CHECK(fed == 50);
  CHECK(c->period_ctas == 10);
  CHECK(c->period_cycles == Approx(1000));
  // 50 CTAs left: 5 whole periods skipped, so CTAs [0, 50) are simulated and the grid's
  // end (its tail) is the cut run's end shifted by 5 periods.
  CHECK(c->periods == 5);
  CHECK(c->stop_at == 50);
  CHECK(d.decided());
}

TEST_CASE("steady_state_keeps_the_grids_partial_last_wave", "[steady]") {
  // 105 CTAs: the 5 of the last partial wave stay simulated.
  SteadyStateDetector d(105, 10);
  const auto c = feed(d, 105, 10, [](std::size_t i) { return Cycle(500 * (i / 10) + (i % 10)); });
  REQUIRE(c);
  CHECK(c->periods == 5);
  CHECK(c->stop_at == 105 - 50);
}

TEST_CASE("steady_state_finds_a_two_wave_period", "[steady]") {
  // Waves alternate 900 and 1100 cycles: no one-wave period, a two-wave one of 2000.
  SteadyStateDetector d(200, 10);
  auto start = [](std::size_t w) { return Cycle(2000 * (w / 2) + (w % 2 ? 900 : 0)); };
  const auto c = feed(d, 200, 10, [&](std::size_t i) { return start(i / 10) + Cycle(i % 10); });
  REQUIRE(c);
  CHECK(c->period_ctas == 20);
  CHECK(c->period_cycles == Approx(2000));
  CHECK(c->mark == 79);  // 2 warm-up waves and three periods of two
  CHECK(c->periods == 6);
  CHECK(c->stop_at == 80);
}

TEST_CASE("steady_state_refuses_what_does_not_repeat", "[steady]") {
  // Each wave 1% longer than the last: every CTA of a wave the same L after its
  // counterpart, but L itself grows: never two periods alike within 0.2%.
  SteadyStateDetector grow(200, 10);
  double t = 0, len = 1000;
  std::vector<Cycle> starts;
  for (int w = 0; w < 20; ++w) starts.push_back(Cycle(t)), t += len, len *= 1.01;
  CHECK(!feed(grow, 200, 10, [&](std::size_t i) { return starts[i / 10] + Cycle(i % 10); }));
  CHECK(grow.why_not().find("no stable period") != std::string::npos);
  // Too few waves: a period needs 2 warm-up waves, 3 periods seen and 1 left.
  SteadyStateDetector few(55, 10);
  CHECK(!feed(few, 55, 10, [](std::size_t i) { return Cycle(1000 * (i / 10)); }));
  CHECK(few.why_not() == "too few waves to find a period (6)");
  // A period that settles only after wave 3 (waves 2 and 3 are 1300 and 1400 long), with
  // less than a whole period of the grid left by then: no cut.
  SteadyStateDetector late(65, 10);
  const Cycle wave[] = {0, 1000, 2300, 3700, 4700, 5700, 6700};
  CHECK(!feed(late, 65, 10, [&](std::size_t i) { return wave[i / 10] + Cycle(i % 10); }));
  CHECK(late.decided());
  CHECK(late.why_not().find("less than a period") != std::string::npos);
}

TEST_CASE("steady_state_takes_a_longer_period_when_the_caller_refuses_a_shorter", "[steady]") {
  // The dispatches repeat every wave, but the caller's counters only every two.
  SteadyStateDetector d(200, 10);
  std::size_t fed = 0;
  const auto repeats = [](const SteadyCut& c) { return c.period_ctas == 20; };
  std::optional<SteadyCut> cut;
  for (std::size_t i = 0; i < 200 && !cut; ++i) {
    cut = d.on_dispatch(i, i < 10 ? 0 : Cycle(1000 * (i / 10)), repeats);
    fed = i + 1;
  }
  REQUIRE(cut);
  CHECK(cut->period_ctas == 20);
  CHECK(cut->period_cycles == Approx(2000));
  CHECK(fed == 80);  // warm-up 2 waves + three periods of 2 waves
  // A caller that refuses every period: no cut, and the reason names the counters.
  SteadyStateDetector never(200, 10);
  for (std::size_t i = 0; i < 200; ++i)
    CHECK(!never.on_dispatch(i, i < 10 ? 0 : Cycle(1000 * (i / 10)),
                             [](const SteadyCut&) { return false; }));
  CHECK(never.why_not().find("the counters") != std::string::npos);
  SteadyStateDetector one(100, 100);
  CHECK(one.why_not().find("one wave") != std::string::npos);
}
