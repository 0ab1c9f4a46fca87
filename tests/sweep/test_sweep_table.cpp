// The tidy table from point files: one row per point and workload, parameters typed,
// speedups over the reference point, failures with their errors, CSV quoting.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/sweep/key_stats.h"
#include "sim/sweep/point_record.h"
#include "sim/sweep/results_table.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::sweep;

namespace {

// Removes a test's scratch folder when the test case ends, pass or fail.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

nlohmann::json plan() {
  return {{"name", "t"},
          {"axes",
           {{{"name", "l2.ways"}, {"keys", {"l2.ways"}}, {"values", {{"8"}, {"16"}, {"32"}}}},
            {{"name", "sparsity"}, {"keys", {"sparsity"}}, {"values", {{"dense"}}}}}},
          {"workloads", {{{"name", "a"}}, {{"name", "b"}}}},
          {"points", 3},
          {"reference_point", 1}};
}

WorkloadResult ok(const std::string& name, double seconds) {
  WorkloadResult w;
  w.name = name;
  w.ok = true;
  w.stats = {{"cycles", seconds * 1e9},
             {"seconds", seconds},
             {"tflops", 1.5},
             {"limiter", "tensor"},
             {"utilization",
              {{"tensor", 0.5}, {"smem", 0.25}, {"l2", 0.1}, {"dram", 0.2}, {"l2_link", 0.3}}},
             {"tc_macs_per_cycle", 110592.0}};
  w.sim_wall_seconds = 0.123;  // host times never reach the table
  return w;
}

}  // namespace

TEST_CASE("sweep_table_rows_speedups_and_failures", "[sweep]") {
  const std::string dir = stcsim::test::temp_dir("table");
  const RemoveOnExit cleanup{dir};
  std::map<std::int64_t, std::string> files;
  for (std::int64_t id : {0, 1}) {  // point 2 is absent (not run yet)
    PointRecord r;
    r.id = id;
    r.values = {{"l2.ways", id == 0 ? "8" : "16"}, {"sparsity", "dense"}};
    r.workloads.push_back(ok("a", id == 0 ? 2e-6 : 1e-6));
    if (id == 0) {
      WorkloadResult f;
      f.name = "b";
      f.error = "exit status 2: stcsim: error: no \"bf16\" mma, sorry";
      r.workloads.push_back(f);
    } else {
      r.workloads.push_back(ok("b", 4e-6));
    }
    write_point(dir, r);
    files[id] = dir + "/" + point_file_name(id);
  }
  const auto t = build_table(plan(), files);
  CHECK(t["points_present"] == 2);
  CHECK(t["points_failed"] == 1);
  REQUIRE(t["rows"].size() == 4);
  const auto& r0 = t["rows"][0];
  CHECK(r0["point"] == 0);
  CHECK(r0["l2.ways"] == 8);  // a number in JSON
  CHECK(r0["sparsity"] == "dense");
  CHECK(r0["workload"] == "a");
  CHECK(r0["util_smem"] == 0.25);
  CHECK(r0["speedup_vs_ref"].get<double>() == Approx(0.5));  // 1 us at the reference vs 2 us
  CHECK(t["rows"][1]["status"] == "failed");
  CHECK(t["rows"][1]["cycles"].is_null());
  CHECK(t["rows"][2]["speedup_vs_ref"] == 1.0);
  const std::string csv = table_csv(t);
  CHECK_THAT(csv, Catch::StartsWith("point,l2.ways,sparsity,workload,status,cycles,seconds,"));
  CHECK_THAT(csv, Catch::Contains("\n0,8,dense,a,ok,2000,2e-06,1.5,"));
  CHECK_THAT(csv,
             Catch::Contains(",\"exit status 2: stcsim: error: no \"\"bf16\"\" mma, sorry\"\n"));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);
}

TEST_CASE("sweep_point_files_round_trip_and_names", "[sweep]") {
  CHECK(point_file_name(42) == "p00000042.json");
  CHECK(point_id_of("p00000042.json") == 42);
  CHECK(!point_id_of(".p00000042.json.123.tmp"));
  CHECK(!point_id_of("results.json"));
  const std::string dir = stcsim::test::temp_dir("points");
  const RemoveOnExit cleanup{dir};
  PointRecord r;
  r.id = 7;
  r.values = {{"l2.ways", "8"}};
  r.workloads.push_back(ok("a", 1e-6));
  write_point(dir, r);
  const PointRecord back = read_point(dir + "/p00000007.json");
  CHECK(back.to_json() == r.to_json());
  CHECK(back.workloads[0].sim_wall_seconds == 0.123);
  // Only the final file is left: the temp file was renamed over it.
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);
}

TEST_CASE("sweep_key_stats_and_table_carry_energy_when_the_run_has_a_power_model", "[sweep]") {
  nlohmann::json s = {{"arch", "a100"},
                      {"config", {{"hardware", nlohmann::json::object()}}},
                      {"ops", nlohmann::json::array()},
                      {"total",
                       {{"name", "total"},
                        {"seconds", 2e-3},
                        {"peak_tflops", 312.0},
                        {"wall_seconds", 1.5},
                        {"energy", {{"joules", 0.8}, {"tensor", 0.5}}},
                        {"power", {{"watts", 400.0}, {"clock_mhz", 1395.0}}}}}};
  auto k = key_stats(s);
  CHECK(k["joules"] == 0.8);
  CHECK(k["watts"] == 400.0);
  CHECK(k["clock_mhz"] == 1395.0);
  CHECK(!k.contains("wall_seconds"));
  // Without a power model (power.impl: none) the columns stay empty.
  s["total"].erase("energy");
  s["total"].erase("power");
  k = key_stats(s);
  CHECK(!k.contains("joules"));
  CHECK(!k.contains("watts"));

  const std::string dir = stcsim::test::temp_dir("table_energy");
  const RemoveOnExit cleanup{dir};
  PointRecord r;
  r.id = 1;
  r.values = {{"l2.ways", "16"}, {"sparsity", "dense"}};
  auto w = ok("a", 1e-6);
  w.stats["joules"] = 0.25;
  w.stats["watts"] = 250.0;
  w.stats["clock_mhz"] = 1410.0;
  r.workloads.push_back(w);
  r.workloads.push_back(ok("b", 2e-6));
  write_point(dir, r);
  const auto t = build_table(plan(), {{1, dir + "/" + point_file_name(1)}});
  CHECK(t["rows"][0]["joules"] == 0.25);
  CHECK(t["rows"][0]["watts"] == 250.0);
  CHECK(t["rows"][0]["clock_mhz"] == 1410.0);
  CHECK(t["rows"][1]["joules"].is_null());
  CHECK_THAT(table_csv(t), Catch::Contains(",joules,watts,clock_mhz,error\n"));
}
