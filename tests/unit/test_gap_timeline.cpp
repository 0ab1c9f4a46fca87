// GapTimeline (models/common/gap_timeline.h): a request takes the earliest idle stretch
// from its ready cycle, touching stretches merge, a series' hint never skips a gap, append
// keeps first-come-first-served, and forgetting clamps later starts to the horizon.
#include <catch2/catch.hpp>
#include <cstddef>
#include <utility>
#include <vector>

#include "models/common/gap_timeline.h"

using stcsim::Cycle;
using stcsim::GapTimeline;
using Stretches = std::vector<std::pair<Cycle, Cycle>>;

TEST_CASE("gap_timeline_series_fills_gaps_in_order", "[unit][timeline]") {
  GapTimeline t;
  // A k-tile reserved ahead: two runs with an idle stretch [16, 100) between them.
  CHECK(t.reserve(0, 8) == 0);
  CHECK(t.reserve(8, 8) == 8);  // touches: one stretch
  CHECK(t.reserve(100, 8) == 100);
  CHECK(t.stretches() == Stretches{{0, 16}, {100, 108}});
  // A later series, ready at 10, 10, 90, 95: into the gap, each after the one before.
  std::size_t hint = 0;
  CHECK(t.fill(10, 8, hint) == 16);
  CHECK(t.fill(24, 8, hint) == 24);
  CHECK(t.fill(90, 8, hint) == 90);   // [90, 98) fits before 100
  CHECK(t.fill(98, 8, hint) == 108);  // [98, 106) would overlap [100, 108): after it
  CHECK(t.stretches() == Stretches{{0, 32}, {90, 98}, {100, 116}});
  CHECK(t.busy_cycles() == 7 * 8);
  CHECK(t.free_at() == 116);
}

TEST_CASE("gap_timeline_fills_a_gap_exactly_and_merges_both_sides", "[unit][timeline]") {
  GapTimeline t;
  t.reserve(0, 10);
  t.reserve(20, 10);
  CHECK(t.reserve(10, 10) == 10);  // exactly the gap
  CHECK(t.stretches() == Stretches{{0, 30}});
  CHECK(t.reserve(5, 4) == 30);  // no gap left before the end
}

TEST_CASE("gap_timeline_hint_from_a_later_request_still_finds_the_earliest_gap",
          "[unit][timeline]") {
  GapTimeline t;
  for (Cycle s : {0.0, 20.0, 40.0, 60.0}) t.reserve(s, 10);
  std::size_t hint = 0;
  CHECK(t.fill(58, 4, hint) == 70);  // [58, 62) overlaps [60, 70): after the last stretch
  CHECK(t.fill(52, 4, hint) == 52);  // an earlier ready cycle: the hint walks back
  CHECK(t.fill(12, 4, hint) == 12);
  CHECK(t.stretches() == Stretches{{0, 10}, {12, 16}, {20, 30}, {40, 50}, {52, 56}, {60, 74}});
}

TEST_CASE("gap_timeline_append_ignores_gaps_and_forget_sets_a_horizon", "[unit][timeline]") {
  GapTimeline t;
  t.reserve(0, 10);
  t.reserve(50, 10);
  CHECK(t.append(5, 10) == 60);  // first-come-first-served: after everything
  t.forget_before(55);           // [0, 10) ended by then
  CHECK(t.stretches() == Stretches{{50, 70}});
  CHECK(t.reserve(20, 5) == 70);  // the idle [10, 50) is forgotten
  t.forget_before(100);
  CHECK(t.stretches().empty());
  CHECK(t.reserve(20, 5) == 100);  // nothing starts before the horizon
  t.forget_before(1000);
  CHECK(t.free_at() == 105);  // the last end, kept once every stretch is forgotten
  CHECK(t.append(0, 5) == 1000);
  CHECK(t.busy_cycles() == 10 + 10 + 10 + 5 + 5 + 5);
}
