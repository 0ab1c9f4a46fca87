// summarize_cta_phases (models/common/cta_phases.h), which the model's and the GPU's
// CTA-phase benchmarks share: medians of each phase, the refill of an SM's slot, and the
// skew of co-resident CTAs, on records worked out by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "models/common/cta_phases.h"

using stcsim::CtaPhaseRecord;
using stcsim::summarize_cta_phases;

TEST_CASE("cta_phases_one_cta_an_sm_has_refills_and_no_skew", "[unit][cta_phases]") {
  // SM 0 runs two CTAs one after the other, SM 7 one: prologues 100, 120, 110; loops
  // 1000, 1000, 990; epilogues 50, 60, 55; the second CTA on SM 0 starts 30 after the first ends.
  const std::vector<CtaPhaseRecord> ctas = {
      {0, 0, 100, 1100, 1150}, {0, 1180, 1300, 2300, 2360}, {7, 5, 115, 1105, 1160}};
  const auto s = summarize_cta_phases(ctas);
  CHECK(s.prologue == 110);
  CHECK(s.loop == 1000);
  CHECK(s.epilogue == 55);
  CHECK(s.refill == 30);
  CHECK(std::isnan(s.corun_skew));
}

TEST_CASE("cta_phases_co_resident_ctas_skew_by_their_starts", "[unit][cta_phases]") {
  // Two CTAs an SM. SM 1 in step (both start at 0, then both at 2000, 40 after the later
  // of the first pair's ends); SM 2 alternating (the second starts 700 into the first, its
  // successor 10 after the first's end, during the second).
  const std::vector<CtaPhaseRecord> ctas = {
      {1, 0, 300, 1800, 1960},     {1, 0, 300, 1800, 1950}, {1, 2000, 2300, 3800, 3900},
      {1, 2000, 2300, 3800, 3900}, {2, 0, 300, 1300, 1400}, {2, 700, 1000, 2000, 2100},
      {2, 1410, 1700, 2700, 2800}};
  const auto s = summarize_cta_phases(ctas);
  // Skews: SM 1's pairs start together (0, 0, 0, 0: each counts the other, started no
  // later); SM 2: 700 (into the first), 710 (1410 - 700). Median of {0,0,0,0,700,710}: 0.
  CHECK(s.corun_skew == 0);
  // Refills: SM 1's late pair, each after the latest end before it (1960): 40, 40; SM 2's
  // third after the first's end (1400): 10. Median of {10, 40, 40}: 40.
  CHECK(s.refill == 40);
  const auto alternating = summarize_cta_phases({ctas.begin() + 4, ctas.end()});
  CHECK(alternating.corun_skew == 705);
}

TEST_CASE("cta_phases_no_ctas_no_figures", "[unit][cta_phases]") {
  const auto s = summarize_cta_phases({});
  CHECK(std::isnan(s.prologue));
  CHECK(std::isnan(s.loop));
  CHECK(std::isnan(s.epilogue));
  CHECK(std::isnan(s.refill));
  CHECK(std::isnan(s.corun_skew));
}
