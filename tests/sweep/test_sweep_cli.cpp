// `stcsim sweep` through the binary: nothing runs for an invalid spec, failing points
// are recorded and the sweep goes on, a folder is locked while a sweep writes to it and
// refuses a different sweep, --retry-failed, --timeout, --dry-run, exit statuses.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;
namespace fs = std::filesystem;

namespace {

// Removes a test's scratch folder when the test case ends, pass or fail.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::string write_spec(const std::string& dir, const std::string& body) {
  const std::string path = dir + "/spec.yaml";
  std::ofstream(path) << "schema_version: 1\n" << body;
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json table(const std::string& out) {
  return nlohmann::json::parse(slurp(out + "/results.json"));
}

}  // namespace

TEST_CASE("sweep_cli_invalid_spec_runs_nothing", "[sweep]") {
  const std::string d = temp_dir("inval");
  const RemoveOnExit cleanup{d};
  const auto spec = write_spec(
      d, "base: a100\nworkloads: [256x256x256]\nvary:\n  l2.ways: [16, 32]\n  l2.slicez: [8]\n");
  const auto r = run_stcsim("sweep " + spec + " --out " + d + "/out");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("spec.yaml:6") && Catch::Contains("l2.slicez") &&
                        Catch::Contains("nearest valid key: 'l2.slices'"));
  CHECK(!fs::exists(d + "/out"));  // rejected before anything ran or was created
  CHECK(run_stcsim("sweep " + d + "/missing.yaml --out " + d + "/out").status == 2);
  CHECK(run_stcsim("sweep " + spec).status != 0);  // --out is required
  CHECK(run_stcsim("sweep " + spec + " --out " + d + "/o --shard 3/3").status == 2);
}

TEST_CASE("sweep_cli_failing_point_is_recorded_and_the_sweep_goes_on", "[sweep]") {
  const std::string d = temp_dir("fail");
  const RemoveOnExit cleanup{d};
  // V100 has no bf16 tensor cores: those points fail at run time, the others run.
  const auto spec =
      write_spec(d,
                 "base: v100\nworkloads: [256x256x256]\nvary:\n  dtype: [fp16, bf16]\n"
                 "  l2.ways: [8, 16]\n");
  const std::string out = d + "/out";
  const auto r = run_stcsim("sweep " + spec + " --out " + out + " -j 2 -q");
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("4/4 points done") && Catch::Contains("2 failed"));
  const auto t = table(out);
  REQUIRE(t["rows"].size() == 4);
  for (const auto& row : t["rows"]) {
    const bool bf16 = row["dtype"] == "bf16";
    CHECK(row["status"] == (bf16 ? "failed" : "ok"));
    if (bf16)
      CHECK_THAT(row["error"].get<std::string>(),
                 Catch::Contains("exit status 2") && Catch::Contains("bf16"));
    else
      CHECK(row["cycles"].get<double>() > 0);
  }
  // The point file keeps the command that reproduces it.
  const auto p = nlohmann::json::parse(slurp(out + "/points/p00000002.json"));
  CHECK_THAT(p["workloads"][0]["command"].get<std::string>(),
             Catch::Contains("stcsim run --arch v100 -p l2.ways=8 --dtype bf16"));
  // A rerun skips everything, failures included, unless asked to retry them.
  const auto again = run_stcsim("sweep " + spec + " --out " + out + " -q");
  CHECK(again.status == 1);
  CHECK_THAT(again.err, Catch::Contains("(4 from before, 0 now, 2 failed)"));
  const auto retry = run_stcsim("sweep " + spec + " --out " + out + " -q --retry-failed");
  CHECK_THAT(retry.err, Catch::Contains("(2 from before, 2 now, 2 failed)"));
}

TEST_CASE("sweep_cli_folder_holds_one_sweep_at_a_time", "[sweep]") {
  const std::string d = temp_dir("lock");
  const RemoveOnExit cleanup{d};
  const auto spec =
      write_spec(d, "base: a100\nworkloads: [128x128x128]\nvary:\n  l2.ways: [8, 16]\n");
  const std::string out = d + "/out";
  REQUIRE(run_stcsim("sweep " + spec + " --out " + out + " -q").status == 0);
  // Another spec into the same folder: refused, the results stay.
  const auto other =
      write_spec(d, "base: a100\nworkloads: [128x128x128]\nvary:\n  l2.ways: [8, 32]\n");
  const auto r = run_stcsim("sweep " + other + " --out " + out + " -q");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("different sweep"));
  // While a sweep holds the folder's lock, a second one is refused.
  const int fd = ::open((out + "/.lock").c_str(), O_RDWR);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  const auto locked = run_stcsim("sweep " + spec + " --out " + out + " -q");
  ::close(fd);
  CHECK(locked.status == 2);
  CHECK_THAT(locked.err, Catch::Contains("another stcsim sweep is writing"));
  // A folder of the user's that is not a sweep's: refused, its files kept.
  const std::string mine = d + "/mine";
  fs::create_directories(mine);
  std::ofstream(mine + "/results.csv") << "my numbers\n";
  const auto taken = run_stcsim("sweep " + spec + " --out " + mine + " -q");
  CHECK(taken.status == 2);
  CHECK_THAT(taken.err, Catch::Contains("not a sweep folder"));
  CHECK(slurp(mine + "/results.csv") == "my numbers\n");
  // A timeout that is no duration: refused before anything runs.
  for (const char* t : {"0", "-1", "nan", "inf"}) {
    const auto bad = run_stcsim("sweep " + spec + " --out " + d + "/t --timeout " + t + " -q");
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Catch::Contains("--timeout"));
  }
}

TEST_CASE("sweep_cli_timeout_and_dry_run", "[sweep]") {
  const std::string d = temp_dir("timeout");
  const RemoveOnExit cleanup{d};
  const auto spec =
      write_spec(d, "base: a100\nworkloads: [8192x8192x8192]\nvary:\n  l2.ways: [8, 16]\n");
  const auto dry = run_stcsim("sweep " + spec + " --out " + d + "/dry --dry-run --shard 1/2");
  CHECK(dry.status == 0);
  CHECK(dry.out == "p1 l2.ways=16\n");
  CHECK(!fs::exists(d + "/dry"));
  const auto r = run_stcsim("sweep " + spec + " --out " + d + "/out -q -j 2 --timeout 0.3");
  CHECK(r.status == 1);
  const auto t = table(d + "/out");
  REQUIRE(t["rows"].size() == 2);
  CHECK_THAT(t["rows"][0]["error"].get<std::string>(), Catch::Contains("timed out"));
}

TEST_CASE("sweep_cli_results_table_is_bounded_by_max_memory", "[sweep]") {
  // 40 x 25 = 1000 points of one workload: a ~2 MB table, refused under a 1 MiB limit
  // before anything runs or is created, with the estimate; accepted under the default.
  const std::string d = temp_dir("table_mem");
  const RemoveOnExit cleanup{d};
  std::string ways = "[", slices = "[";
  for (int i = 1; i <= 40; ++i) ways += (i > 1 ? ", " : "") + std::to_string(i);
  for (int i = 1; i <= 25; ++i) slices += (i > 1 ? ", " : "") + std::to_string(8 * i);
  const auto spec =
      write_spec(d, "base: a100\nworkloads: [256x256x256]\nvary:\n  l2.ways: " + ways +
                        "]\n  l2.slices: " + slices + "]\n");
  const auto r = run_stcsim("sweep " + spec + " --out " + d + "/out --dry-run --max-memory 1M");
  INFO(r.err);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("results table of 1000 points x 1 workloads") &&
                        Catch::Contains("--max-memory"));
  CHECK(!fs::exists(d + "/out"));
  CHECK(run_stcsim("sweep " + spec + " --out " + d + "/out2 --dry-run").status == 0);
}

TEST_CASE("sweep_cli_model_workloads_are_traced_once_and_reused", "[sweep]") {
  const std::string d = temp_dir("model_wl");
  const RemoveOnExit cleanup{d};
  std::ofstream(d + "/net.csv") << "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
                                   "Width, Channels, Num Filter, Strides,\n"
                                   "c1, 34, 34, 3, 3, 64, 64, 1,\nc2, 32, 32, 1, 1, 64, 128, 1,\n";
  const auto spec = write_spec(d,
                               "base: a100\nvary:\n  l2.ways: [8, 16]\nworkloads:\n"
                               "  - {model: net.csv, batch: 2, name: net}\n"
                               "  - {model: dlrm_kaggle, prune: \"2:4\", batch: 64}\n");
  // A dry run traces into a scratch folder and writes nothing under --out.
  const auto dry = run_stcsim("sweep " + spec + " --dry-run --out " + d + "/out");
  INFO(dry.err);
  CHECK(dry.status == 0);
  CHECK(!fs::exists(d + "/out"));
  const auto r = run_stcsim("sweep " + spec + " -q -j 2 --out " + d + "/out");
  INFO(r.err);
  REQUIRE(r.status == 0);
  // One trace per model workload in the sweep folder, which every point ran.
  std::vector<std::string> traces;
  for (const auto& e : fs::directory_iterator(d + "/out/workloads"))
    if (e.path().extension() == ".trace") traces.push_back(e.path().filename().string());
  std::sort(traces.begin(), traces.end());
  REQUIRE(traces.size() == 2);
  CHECK(traces[0].rfind("dlrm_kaggle_2_4-", 0) == 0);
  CHECK(traces[1].rfind("net-", 0) == 0);
  const auto t = table(d + "/out");
  REQUIRE(t["rows"].size() == 4);  // 2 points x 2 workloads
  for (const auto& row : t["rows"]) {
    CHECK(row["status"] == "ok");
    CHECK(row["cycles"].get<double>() > 0);
  }
  // The plan records each model and its trace's fingerprint, not the scratch path.
  const auto plan = nlohmann::json::parse(slurp(d + "/out/sweep.json"));
  CHECK(plan["workloads"][0]["model"] == d + "/net.csv");
  CHECK(plan["workloads"][1]["prune"] == "2:4");
  CHECK(!plan["workloads"][0].contains("trace"));
  // Resuming traces the same files again and finds every point done.
  const auto again = run_stcsim("sweep " + spec + " -q --out " + d + "/out");
  INFO(again.err);
  CHECK(again.status == 0);
  CHECK_THAT(again.err, Catch::Contains("2/2 points done (2 from before, 0 now"));
  // A model that does not load names the spec's line, and nothing is created.
  const auto bad = write_spec(d, "base: a100\nworkloads:\n  - {model: no_such_model}\n");
  const auto b = run_stcsim("sweep " + bad + " --out " + d + "/bad_out");
  CHECK(b.status == 2);
  CHECK_THAT(b.err, Catch::Contains("spec.yaml:4: workload 'no_such_model'") &&
                        Catch::Contains("unknown model 'no_such_model'"));
  CHECK(!fs::exists(d + "/bad_out"));
}

TEST_CASE("sweep_cli_screen_simulates_only_the_best_points", "[sweep]") {
  const std::string d = temp_dir("screen");
  const RemoveOnExit cleanup{d};
  // More SMs can only help these GEMMs: the screen must keep the largest GPU, and the
  // reference (the first point) is always simulated too.
  const auto spec = write_spec(d,
                               "base: a100\nvary:\n  gpu.num_sms: [27, 54, 81, 108]\n"
                               "workloads: [2048x2048x2048, 1024x3072x768]\n");
  const auto r = run_stcsim("sweep " + spec + " -q -j 2 --screen 1 --out " + d + "/out");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("screened 4 points analytically") &&
                        Catch::Contains("simulating the best 2"));
  const auto screen = table(d + "/out/screen");
  REQUIRE(screen["rows"].size() == 8);  // every point, analytic
  const auto sim = table(d + "/out");
  REQUIRE(sim["rows"].size() == 4);  // two points x two workloads
  std::set<long> points;
  for (const auto& row : sim["rows"]) points.insert(row["point"].get<long>());
  CHECK(points == std::set<long>{0, 3});
  const auto plan = nlohmann::json::parse(slurp(d + "/out/screen/sweep.json"));
  CHECK(plan["mode"] == "analytic");
  CHECK(run_stcsim("sweep " + spec + " --screen 0 --out " + d + "/o2").status == 2);
  // A spec that varies the mode itself cannot be screened.
  const auto both =
      write_spec(d, "base: a100\nvary:\n  mode: [cycle, analytic]\nworkloads: [256x256x256]\n");
  const auto b = run_stcsim("sweep " + both + " --screen 1 --out " + d + "/o3");
  CHECK(b.status == 2);
  CHECK_THAT(b.err, Catch::Contains("varies 'mode' itself"));
}

TEST_CASE("sweep_cli_runs_steady_mode_points", "[sweep][steady]") {
  // mode: steady reaches each point's `stcsim run` (--mode steady); a GEMM of 19 waves is
  // extrapolated there within 1% of the cycle-mode point.
  const std::string d = temp_dir("steady");
  const RemoveOnExit cleanup{d};
  const auto spec =
      write_spec(d, "base: a100\nworkloads: [8192x8192x2048]\nvary:\n  mode: [cycle, steady]\n");
  const std::string out = d + "/out";
  const auto r = run_stcsim("sweep " + spec + " --out " + out + " -j 2 -q");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto t = table(out);
  REQUIRE(t["rows"].size() == 2);
  double cycles[2] = {0, 0};
  for (const auto& row : t["rows"]) cycles[row["mode"] == "steady"] = row["cycles"].get<double>();
  CHECK(cycles[0] > 0);
  CHECK(std::abs(cycles[1] / cycles[0] - 1) < 0.01);
  const auto p = nlohmann::json::parse(slurp(out + "/points/p00000001.json"));
  CHECK_THAT(p["workloads"][0]["command"].get<std::string>(), Catch::Contains("--mode steady"));
}
