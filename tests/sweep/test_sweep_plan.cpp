// The plan: point numbering (first axis slowest), zipped groups, the reference point,
// shards that split the points disjointly, and the plan JSON a resume compares.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "sim/core/input_error.h"
#include "sim/sweep/child_command.h"
#include "sim/sweep/sweep_plan.h"

using namespace stcsim::sweep;

namespace {
SweepPlan plan_of(const std::string& vary, const std::string& extra = "") {
  return SweepPlan(parse_sweep_spec_text(
      "schema_version: 1\nbase: a100\nworkloads: [256x256x256]\nvary:\n" + vary + extra,
      "/s/p.yaml"));
}
const std::string kVary =
    "  l2.ways: [8, 16, 32]\n"
    "  g:\n    sm.smem_kib: [100, 164]\n    sm.max_smem_per_cta_kib: [99, 163]\n";
}  // namespace

TEST_CASE("sweep_plan_numbers_points_first_axis_slowest", "[sweep]") {
  const SweepPlan p = plan_of(kVary);
  REQUIRE(p.count() == 6);
  const Point p3 = p.point(3);  // ways index 1, group index 1
  CHECK(p3.index == std::vector<std::size_t>{1, 1});
  CHECK(p3.values ==
        std::vector<std::pair<std::string, std::string>>{
            {"l2.ways", "16"}, {"sm.smem_kib", "164"}, {"sm.max_smem_per_cta_kib", "163"}});
  CHECK(p.point(4).value_of("l2.ways") == "32");
  CHECK(p.point(4).value_of("sm.smem_kib") == "100");
  CHECK(p.point(4).value_of("l2.slices") == "");
  CHECK(p.varied_keys() ==
        std::vector<std::string>{"l2.ways", "sm.smem_kib", "sm.max_smem_per_cta_kib"});
  CHECK(p.reference_id() == 0);  // no reference given: the first point
}

TEST_CASE("sweep_plan_reference_point", "[sweep]") {
  CHECK(plan_of(kVary, "reference: {l2.ways: 32, sm.max_smem_per_cta_kib: 163}\n").reference_id() ==
        5);
  CHECK(plan_of(kVary, "reference: {sm.smem_kib: 164}\n").reference_id() == 1);
  try {
    plan_of(kVary, "reference: {l2.ways: 12}\n");
    FAIL("no error");
  } catch (const stcsim::InputError& e) {
    CHECK_THAT(e.what(),
               Catch::Contains("p.yaml:9") && Catch::Contains("match none of its values"));
  }
  // A group's keys must name one of its rows together.
  CHECK_THROWS_AS(plan_of(kVary, "reference: {sm.smem_kib: 164, sm.max_smem_per_cta_kib: 99}\n"),
                  stcsim::InputError);
}

TEST_CASE("sweep_plan_run_options_precedence", "[sweep]") {
  const SweepPlan p(parse_sweep_spec_text(
      "schema_version: 1\nbase: a100\ndtype: bf16\nsparsity: 2:4\nworkloads:\n  - 8x8x8\n"
      "  - {gemm: 16x16x16, dtype: tf32}\nvary:\n  base: [a100, h100]\n",
      "s.yaml"));
  const auto& w = p.spec().workloads;
  CHECK(p.base_for(p.point(1)) == "h100");
  CHECK(p.dtype_for(p.point(0), w[0]) == "bf16");  // the spec's
  CHECK(p.dtype_for(p.point(0), w[1]) == "tf32");  // the workload's own
  CHECK(p.sparsity_for(p.point(0)) == "2:4");
  const SweepPlan v = plan_of("  dtype: [fp16, int8]\n");
  CHECK(v.dtype_for(v.point(1), v.spec().workloads[0]) == "int8");  // a varied value wins
}

TEST_CASE("sweep_plan_l2_policy_reaches_the_child_run", "[sweep]") {
  const SweepPlan d = plan_of("  l2.ways: [8]\n");
  CHECK(d.l2_for(d.point(0)) == "flush");  // stcsim run's default
  CHECK(d.to_json()["l2"] == "flush");
  const SweepPlan w = plan_of("  l2.ways: [8]\n", "l2: warm\n");
  CHECK(w.l2_for(w.point(0)) == "warm");
  const SweepPlan v = plan_of("  l2: [flush, warm]\n");
  REQUIRE(v.count() == 2);
  CHECK(v.l2_for(v.point(1)) == "warm");  // a varied value wins
  const auto argv = child_argv(v, v.point(1), v.spec().workloads[0], "stcsim", "/out");
  const auto at = std::find(argv.begin(), argv.end(), "--l2");
  REQUIRE(at != argv.end());
  CHECK(*(at + 1) == "warm");
  // A run option, not a -p parameter.
  CHECK(std::find(argv.begin(), argv.end(), "l2=warm") == argv.end());
}

TEST_CASE("sweep_shards_split_points_disjointly", "[sweep]") {
  const SweepPlan p = plan_of(kVary);
  std::multiset<std::int64_t> seen;
  for (int i = 0; i < 4; ++i) {
    const Shard s = parse_shard(std::to_string(i) + "/4");
    for (std::int64_t id = 0; id < p.count(); ++id)
      if (s.contains(id)) seen.insert(id);
  }
  CHECK(seen == std::multiset<std::int64_t>{0, 1, 2, 3, 4, 5});
  for (const char* bad : {"4/4", "-1/4", "1", "a/b", "1/0", "1/2x"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_shard(bad), Catch::Contains("--shard"));
  }
}

TEST_CASE("sweep_plan_json_identifies_the_sweep", "[sweep]") {
  const auto a = plan_of(kVary).to_json();
  CHECK(a == plan_of(kVary).to_json());  // stable
  CHECK(a["points"] == 6);
  CHECK(a["axes"][1]["keys"][1] == "sm.max_smem_per_cta_kib");
  CHECK(a != plan_of("  l2.ways: [8, 16, 64]\n  g:\n    sm.smem_kib: [100, 164]\n    "
                     "sm.max_smem_per_cta_kib: [99, 163]\n")
                 .to_json());
}
