// The stat registry (sim/core/stat.h): totals by rule, formulas, nesting, slots; and
// the op stats cover every stall cause.
#include <catch2/catch.hpp>
#include <set>

#include "models/kernels/op_result.h"

namespace stcsim {
namespace {

struct Rec {
  std::string label;
  double cycles = 0, work = 0, peak = 0, busy = 0, rate = 0;
  double parts[2] = {0, 0};
  bool special = false;
  StatSlots stats;
};

const Stat<Rec> rec_label{{"label", "-", "", StatTotal::kLabel, "test"}, field(&Rec::label)};
const Stat<Rec> rec_cycles{{"cycles", "cycles", "", StatTotal::kSum, "test"}, field(&Rec::cycles)};
const Stat<Rec> rec_work{{"work", "ops", "", StatTotal::kSum, "test"}, field(&Rec::work)};
const Stat<Rec> rec_peak{{"peak", "ops/cycle", "", StatTotal::kMax, "test"}, field(&Rec::peak)};
const Stat<Rec> rec_busy{{"util.busy", "0..1", "", StatTotal::kWeightedMean, "test"},
                         field(&Rec::busy)};
const Stat<Rec> rec_part1{{"util.part1", "cycles", "", StatTotal::kSum, "test"},
                          counter<Rec>([](auto& r) -> auto& { return r.parts[1]; })};
const Stat<Rec> rec_rate{
    {"rate", "ops/cycle", "", StatTotal::kRecomputed, "test"},
    formula(&Rec::rate, [](const Rec& r) { return r.cycles > 0 ? r.work / r.cycles : 0.0; })};
const Stat<Rec> rec_per_peak{
    {"per_peak", "ratio", "", StatTotal::kRecomputed, "test"},
    computed<Rec>([](const Rec& r) { return r.peak > 0 ? r.rate / r.peak : 0.0; })};
const Stat<Rec> rec_only{{"only", "-", "", StatTotal::kNone, "test"},
                         computed<Rec>([](const Rec&) { return 7; }),
                         [](const Rec& r) { return r.special; }};
const Stat<Rec> rec_slot{{"kernel.count", "-", "", StatTotal::kNone, "test"}, stat_slot<Rec>()};

Rec make(double cycles, double work, double peak, double busy, double part1) {
  Rec r;
  r.label = "op";
  r.cycles = cycles;
  r.work = work;
  r.peak = peak;
  r.busy = busy;
  r.parts[1] = part1;
  StatRegistry<Rec>::recompute(r);
  return r;
}

}  // namespace

TEST_CASE("stat_registry_totals_by_rule", "[unit]") {
  const std::vector<Rec> recs{make(100, 300, 4, 0.5, 1), make(300, 300, 2, 0.1, 2)};
  CHECK(recs[0].rate == 3.0);  // the formula applied for the record's producer
  Rec t;
  t.label = "total";
  StatRegistry<Rec>::total(recs, &Rec::cycles, t);
  CHECK(t.cycles == 400);
  CHECK(t.work == 600);
  CHECK(t.peak == 4);
  CHECK(t.busy == Approx((0.5 * 100 + 0.1 * 300) / 400));
  CHECK(t.parts[1] == 3);
  CHECK(t.rate == 1.5);  // recomputed from the totals, not summed (3 + 1)
  const auto j = StatRegistry<Rec>::to_json(t, true);
  CHECK(j["label"] == "total");
  CHECK(j["per_peak"].get<double>() == Approx(1.5 / 4));
  CHECK(j["util"]["part1"] == 3.0);
  CHECK(!j.contains("only"));  // per-record stats stay out of a total
}

TEST_CASE("stat_registry_json_nests_and_shows_conditionally", "[unit]") {
  Rec r = make(10, 20, 4, 0.25, 0);
  auto j = StatRegistry<Rec>::to_json(r, false);
  CHECK(j["util"]["busy"] == 0.25);
  CHECK(!j.contains("only"));    // its condition is false
  CHECK(!j.contains("kernel"));  // a slot never set is not written
  r.special = true;
  r.stats.set(rec_slot.info(), std::int64_t(5));
  j = StatRegistry<Rec>::to_json(r, false);
  CHECK(j["only"] == 7);
  CHECK(j["kernel"]["count"] == 5);
  CHECK(j["kernel"]["count"].is_number_integer());
}

TEST_CASE("op_stats_cover_every_stall_cause", "[unit]") {
  std::set<std::string> names;
  for (const OpStat* s : StatRegistry<OpResult>::all()) {
    CHECK(!s->info().unit.empty());
    CHECK(!s->info().description.empty());
    CHECK(names.insert(s->info().name).second);  // declared once
  }
  for (int i = 0; i < int(StallCause::kCount); ++i) {
    INFO(to_string(StallCause(i)));
    CHECK(names.count(std::string("stall_pipe_cycles.") + to_string(StallCause(i))));
  }
}

}  // namespace stcsim
