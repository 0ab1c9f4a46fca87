// IssuePort (models/sm/issue_port.h): a run takes the earliest idle stretch from its ready
// cycle on, before a later reservation where it fits, after it where it does not; stretches
// that ended are forgotten without moving anything still ahead.
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "models/sm/issue_port.h"

using stcsim::Cycle;
using stcsim::IssuePort;
using Stretches = std::vector<std::pair<Cycle, Cycle>>;

TEST_CASE("issue_port_fills_the_earliest_idle_stretch", "[unit][issue]") {
  IssuePort p;
  CHECK(p.reserve(500, 20) == 500);   // reserved ahead of time
  CHECK(p.reserve(100, 50) == 100);   // fits before it
  CHECK(p.reserve(120, 30) == 150);   // after the run it overlaps, still before 500
  CHECK(p.reserve(160, 400) == 520);  // too long for the gap [180, 500): after 500's run
  CHECK(p.reserve(480, 10) == 480);   // a gap of exactly 20 before 500 holds 10
  CHECK(p.stretches() == Stretches{{100, 180}, {480, 490}, {500, 920}});  // touching ones merged
  CHECK(p.busy_cycles() == 20 + 50 + 30 + 400 + 10);
  CHECK(p.free_at() == 920);
  p.forget_before(490);  // ended by then
  CHECK(p.stretches() == Stretches{{500, 920}});
  CHECK(p.reserve(495, 5) == 495);
  CHECK(p.busy_cycles() == 515);  // forgetting keeps the total
}
