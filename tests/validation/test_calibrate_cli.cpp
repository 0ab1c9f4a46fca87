// `stcsim calibrate` end to end. Recovery: a SYNTHETIC measurement file whose times the
// simulator itself produced on a100 with two known non-default values (L2 hit latency,
// which small GEMMs feel, and DRAM efficiency, which a skinny memory-bound GEMM feels);
// calibrate, started from the preset's values, must find both and fit the times almost
// exactly, and its preset must load and carry them. Bad inputs: each a clear error, exit 2.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "tests/support/run_stcsim.h"
#include "validation/compare/simulate.h"

using namespace stcsim;

namespace {

const std::string kFixture =
    std::string(STCSIM_VALIDATION_FIXTURES) + "/synthetic_measurements.json";

// The values the synthetic times come from; the a100 preset has 200 cycles and 0.92.
constexpr int kTrueHitLatency = 260;
constexpr double kTrueDramEfficiency = 0.78;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

struct SyntheticGemm {
  const char* name;
  long long m, n, k;
  const char* kernel;
  validation::MeasuredMapping mapping;
};

// Two dense/2:4 pairs of small GEMMs (latency-bound) and a skinny one (DRAM-bound).
const std::vector<SyntheticGemm> kGemms = {
    {"small", 256, 256, 256, "stcsim_dense", {64, 64, 64, 32, 32, 4}},
    {"small", 256, 256, 256, "stcsim_sp24", {64, 64, 64, 32, 32, 4}},
    {"wide", 1024, 256, 1024, "stcsim_dense", {64, 64, 64, 32, 32, 4}},
    {"wide", 1024, 256, 1024, "stcsim_sp24", {64, 64, 64, 32, 32, 4}},
    {"skinny", 4096, 16, 4096, "stcsim_dense", {128, 64, 64, 64, 32, 4}},
};

// Simulates each GEMM exactly as calibrate will (validate's arguments) with the true
// values and writes the times as a stcsim-measurements/1 file marked synthetic.
std::string write_synthetic_measurements(const std::string& dir) {
  nlohmann::json gemms = nlohmann::json::array();
  for (const auto& s : kGemms) {
    validation::MeasuredGemm g;
    g.name = s.name;
    g.m = s.m, g.n = s.n, g.k = s.k;
    g.kernel = s.kernel;
    g.sparsity = g.kernel == "stcsim_sp24" ? "2:4" : "dense";
    g.mapping = s.mapping;
    std::vector<std::string> args;
    std::string why;
    REQUIRE(validation::simulation_args(g, "a100", std::nullopt,
                                        {"l2.hit_latency_cycles=" + std::to_string(kTrueHitLatency),
                                         "dram.efficiency=" + std::to_string(kTrueDramEfficiency)},
                                        args, why));
    std::string line;
    for (std::size_t i = 1; i < args.size(); ++i) line += " " + args[i];  // args[0] is "run"
    const double us = test::run_stats(line)["ops"][0]["seconds"].get<double>() * 1e6;
    const auto& m = s.mapping;
    gemms.push_back({{"name", g.name},
                     {"m", g.m},
                     {"n", g.n},
                     {"k", g.k},
                     {"dtype", "fp16"},
                     {"sparsity", g.sparsity},
                     {"kernel", g.kernel},
                     {"mapping",
                      {{"cta_m", m.cta_m},
                       {"cta_n", m.cta_n},
                       {"cta_k", m.cta_k},
                       {"warp_m", m.warp_m},
                       {"warp_n", m.warp_n},
                       {"stages", m.stages}}},
                     {"time_us", {{"median", us}, {"runs", 1}}}});
  }
  const nlohmann::json file{
      {"schema", "stcsim-measurements/1"},
      {"synthetic", true},
      {"note", "SYNTHETIC: times simulated on a100 with l2.hit_latency_cycles=" +
                   std::to_string(kTrueHitLatency) +
                   ", dram.efficiency=" + std::to_string(kTrueDramEfficiency) + "; no GPU"},
      {"command", "(tests/validation/test_calibrate_cli.cpp)"},
      {"device", {{"name", "SYNTHETIC A100 (simulated)"}, {"preset", "a100"}}},
      {"gemms", gemms}};
  const std::string path = dir + "/synthetic_a100.json";
  std::ofstream(path) << file.dump(1);
  return path;
}

}  // namespace

TEST_CASE("calibrate_recovers_the_parameters_of_simulated_data", "[cli][validation]") {
  const std::string dir = test::temp_dir("calibrate");
  const std::string data = write_synthetic_measurements(dir);
  const std::string out = dir + "/out";
  const test::ProcResult r = test::run_stcsim(
      "calibrate --measurements " + data +
      " --arch a100 --params l2.hit_latency_cycles=150:400,dram.efficiency=0.5:1 --out " + out +
      " -j 2");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  // The ranges used are printed.
  CHECK(r.err.find("l2.hit_latency_cycles in [150, 400] cycles, from ") != std::string::npos);
  CHECK(r.out.find("SYNTHETIC") != std::string::npos);

  const nlohmann::json res = read_json(out + "/residuals.json");
  const auto& params = res["parameters"];
  REQUIRE(params.size() == 2);
  const double latency = params[0]["fitted"].get<double>();
  const double efficiency = params[1]["fitted"].get<double>();
  WARN("fitted l2.hit_latency_cycles "
       << latency << " (true " << kTrueHitLatency << "), dram.efficiency " << efficiency
       << " (true " << kTrueDramEfficiency << "); in-sample MAPE "
       << res["summary"]["in_sample"]["mape_percent"] << "%, leave-one-out "
       << res["summary"]["leave_one_out"]["mape_percent"] << "%");
  // Tolerances: a cycle of L2 latency moves the small GEMMs by ~0.07%, 0.01 of DRAM
  // efficiency the skinny one by ~1.3%; the search stops at 1/512 of each range.
  CHECK(std::fabs(latency - kTrueHitLatency) <= 3);
  CHECK(std::fabs(efficiency - kTrueDramEfficiency) <= 0.01);
  const auto& summary = res["summary"];
  CHECK(summary["before"]["mape_percent"].get<double>() > 1);  // the fit had work to do
  CHECK(summary["in_sample"]["mape_percent"].get<double>() < 0.3);
  CHECK(summary["in_sample"]["speedup_pairs"] == 2);
  CHECK(summary["in_sample"]["speedup_abs_error"].get<double>() < 0.01);
  // Leave-one-out: three units (two pairs and the skinny GEMM), each predicted by a refit
  // that did not see it; on exact data it stays near zero too.
  CHECK(summary["leave_one_out"]["gemms"] == 5);
  CHECK(summary["leave_one_out"]["mape_percent"].get<double>() < 1.0);
  CHECK(params[0]["leave_one_out"].size() == 3);
  REQUIRE(res["gemms"].size() == 5);
  for (const auto& g : res["gemms"]) {
    CHECK(g.contains("before_us"));
    CHECK(std::fabs(g["after_error_percent"].get<double>()) < 1.0);
  }

  // The preset loads as an arch and carries the fitted values, with their provenance.
  const nlohmann::json stats =
      test::run_stats("--arch " + out + "/calibrated.yaml --gemm 256x256x256");
  const auto& hw = stats["config"]["hardware"];
  CHECK(hw["l2"]["params"]["hit_latency_cycles"]["value"].get<double>() == latency);
  CHECK(hw["dram"]["params"]["efficiency"]["value"].get<double>() == Approx(efficiency));
  CHECK(hw["l2"]["params"]["hit_latency_cycles"]["from"].get<std::string>().find(
            "calibrated.yaml") != std::string::npos);
  std::ifstream yaml(out + "/calibrated.yaml");
  const std::string text((std::istreambuf_iterator<char>(yaml)), std::istreambuf_iterator<char>());
  CHECK(text.find("base: a100") != std::string::npos);
  CHECK(text.find("synthetic_a100.json") != std::string::npos);
  CHECK(text.find("leave-one-out") != std::string::npos);
  CHECK(text.find("command: stcsim calibrate --measurements") != std::string::npos);
  CHECK(std::filesystem::exists(out + "/residuals.txt"));
  CHECK(std::filesystem::exists(out + "/sim/before/0_stcsim_dense_256x256x256/stats.json"));
  CHECK(std::filesystem::exists(out + "/sim/after/4_stcsim_dense_4096x16x4096/stats.json"));
  CHECK_FALSE(std::filesystem::exists(out + "/sim/fit"));
  std::filesystem::remove_all(dir);
}

// Microbenchmark figures are fitted too: the latency group run on the model with a known
// L2 hit latency (a simulated file, which calibrate must flag as not a measurement), then
// calibrate from the preset's value finds it through `stcsim ubench`.
TEST_CASE("calibrate_fits_microbenchmark_figures", "[cli][validation]") {
  const std::string dir = test::temp_dir("calibrate_ubench");
  const test::ProcResult made =
      test::run_stcsim("ubench --arch a100 --only latency -q -p l2.hit_latency_cycles=" +
                       std::to_string(kTrueHitLatency) + " --out " + dir + "/data");
  REQUIRE(made.status == 0);
  const std::string out = dir + "/out";
  const test::ProcResult r = test::run_stcsim("calibrate --measurements " + dir +
                                              "/data --arch a100 --params "
                                              "l2.hit_latency_cycles=150:400 --no-loo --out " +
                                              out + " -j 2");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("SYNTHETIC") != std::string::npos);
  CHECK(r.out.find("5 microbenchmark figures") != std::string::npos);
  const nlohmann::json res = read_json(out + "/residuals.json");
  CHECK(std::fabs(res["parameters"][0]["fitted"].get<double>() - kTrueHitLatency) <= 1);
  CHECK(res["figures"].size() == 5);
  CHECK(res["summary"]["before"]["mape_percent"].get<double>() > 5);
  CHECK(res["summary"]["in_sample"]["mape_percent"].get<double>() < 0.5);
  std::filesystem::remove_all(dir);
}

TEST_CASE("calibrate_input_errors_exit_2", "[cli][validation]") {
  const std::string out = test::temp_dir("calibrate_err");
  const std::string base = "calibrate --measurements " + kFixture + " --arch h100 --out " + out;
  auto expect_error = [&](const std::string& args, const std::string& says) {
    const test::ProcResult r = test::run_stcsim(args);
    INFO(args << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(says) != std::string::npos);
  };
  expect_error(base + " --params l2.hit_latency_cyc",
               "unknown parameter 'l2.hit_latency_cyc' for l2 'sectored_lru'; nearest valid: "
               "'l2.hit_latency_cycles'");
  expect_error(base + " --params l3.hit_latency_cycles", "no section 'l3'");
  expect_error(base + " --params smem.impl", "unknown parameter 'smem.impl'");
  expect_error(base + " --params tensor_core.sparse_patterns",
               "tensor_core.sparse_patterns is a string parameter and has no range");
  expect_error(base + " --params l2.hit_latency_cycles=400:100",
               "low end must be below its high end");
  expect_error(base + " --params l2.hit_latency_cycles=0:20000",
               "is outside l2.hit_latency_cycles's declared range [1, 10000]");
  expect_error(base + " --params dram.efficiency=0.5", "expected a range lo:hi");
  expect_error(base + " --params dram.efficiency=a:1", "range bound 'a'");
  expect_error(base + " --params ,", "no parameter to fit");
  expect_error(base + " --params dram.efficiency -p dram.efficiency=0.9", "is also in --params");
  expect_error("calibrate --measurements " + kFixture + " --arch " + out +
                   "/x.yaml --params dram.efficiency --out " + out,
               "calibrate needs a built-in preset");
  // No data: a missing file, a folder without measurement files, a file without a GEMM
  // the simulator can run.
  expect_error(
      "calibrate --measurements /nonexistent.json --arch h100 --params dram.efficiency "
      "--out " +
          out,
      "no such file or directory");
  std::filesystem::create_directories(out + "/empty");
  expect_error("calibrate --measurements " + out +
                   "/empty --arch h100 --params dram.efficiency "
                   "--out " +
                   out,
               "no *.json or *.csv measurement files in this directory");
  // A microbenchmark file is read too, and a malformed one named.
  std::ofstream(out + "/empty/ubench.json") << R"({"schema": "stcsim-ubench/1"})";
  expect_error("calibrate --measurements " + out +
                   "/empty --arch h100 --params dram.efficiency --out " + out,
               "empty/ubench.json: malformed stcsim-ubench/1 file");
  std::ofstream(out + "/none.json") << R"({"schema": "stcsim-measurements/1", "device":
      {"name": "X"}, "gemms": [{"name": "a", "m": 8, "n": 8, "k": 8, "kernel": "mystery",
      "time_us": {"median": 1}}]})";
  expect_error("calibrate --measurements " + out +
                   "/none.json --arch h100 --params "
                   "dram.efficiency --out " +
                   out,
               "no measured GEMM the simulator can run");
  std::filesystem::remove_all(out);
}
