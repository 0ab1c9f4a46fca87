// `stcsim validate` end to end on a SYNTHETIC measurement file (fixtures/, clearly marked:
// made-up times on tiny GEMMs, no GPU involved): the report's statistics follow from its
// own predicted/measured pairs, the exit status follows --max-mape, input errors exit 2;
// and on a SYNTHETIC microbenchmark file (stcsim-ubench/1): figures with a simulated
// counterpart are compared, the others listed with why.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>

#include "tests/support/run_stcsim.h"
#include "validation/compare/statistics.h"

using namespace stcsim;

namespace {
const std::string kFixture =
    std::string(STCSIM_VALIDATION_FIXTURES) + "/synthetic_measurements.json";
const std::string kUbenchFixture =
    std::string(STCSIM_VALIDATION_FIXTURES) + "/synthetic_ubench.json";

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}
}  // namespace

TEST_CASE("validate_synthetic_report_and_statistics", "[cli][validation]") {
  const std::string out = test::temp_dir("validate");
  const test::ProcResult r =
      test::run_stcsim("validate --measurements " + kFixture + " --out " + out + " -j 2");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("SYNTHETIC") != std::string::npos);
  CHECK(r.out.find("MAPE") != std::string::npos);
  // The simulations' progress ends at all of them done (issue 17, item 3).
  CHECK(r.err.find(" simulations, elapsed ") != std::string::npos);
  CHECK(r.err.find("ETA 0:00") != std::string::npos);
  // Block-sparse entries run the block kernel, unless their blocks exceed its maps.
  CHECK(r.out.find("128x64 blocks: the simulator's block maps go up to 64x64") !=
        std::string::npos);
  const nlohmann::json rep = read_json(out + "/report.json");
  CHECK(rep["synthetic"] == true);
  CHECK(rep["arch"] == "h100");
  std::vector<double> pred, meas;
  int simulated = 0;
  for (const auto& g : rep["gemms"]) {
    if (!g["simulated"].get<bool>()) continue;
    ++simulated;
    if (g["kernel"].get<std::string>().rfind("stcsim_", 0) != 0) continue;
    pred.push_back(g["predicted_us"].get<double>());
    meas.push_back(g["measured_us"].get<double>());
    // The observed clock (1755-1760 in the fixture, at most the preset's 1755).
    CHECK(g["sim_clock_mhz"].get<double>() > 1700);
    CHECK(g["sim_clock_mhz"].get<double>() < 1800);
  }
  CHECK(simulated == 9);      // all but the BSR entry with 128x64 blocks
  REQUIRE(pred.size() == 6);  // dense x2, 2:4 x2, BSR 64x64, CSR
  CHECK(rep["ours"]["n"] == 6);
  CHECK(rep["vendor"]["n"] == 3);  // cuBLAS, cuSPARSELt, torch_linear
  CHECK(rep["ours"]["mape_percent"].get<double>() == Approx(validation::mape_percent(pred, meas)));
  CHECK(rep["ours"]["pearson"].get<double>() == Approx(validation::pearson(pred, meas)));
  CHECK(rep["ours"]["spearman"].get<double>() == Approx(validation::spearman(pred, meas)));
  // Speedups pair each 2:4 run with its dense twin: 5.0/4.0 and 3.0/2.5 measured.
  REQUIRE(rep["speedups"].size() == 3);
  CHECK(rep["speedups"][0]["measured"].get<double>() == Approx(1.25));
  CHECK(rep["speedups"][1]["measured"].get<double>() == Approx(1.2));
  // The speedup error summarised per sparse kernel: mean and max of the pairs' abs errors.
  std::map<std::string, std::vector<double>> errors;
  for (const auto& s : rep["speedups"])
    errors[s["sparse_kernel"].get<std::string>()].push_back(s["abs_error"].get<double>());
  const auto& summaries = rep["speedup_errors"];
  REQUIRE(summaries.size() == errors.size() + (errors.size() > 1 ? 1 : 0));
  for (const auto& e : summaries) {
    const std::string kernel = e["sparse_kernel"].get<std::string>();
    if (kernel == "all") continue;
    const std::vector<double>& v = errors.at(kernel);
    CHECK(e["n"] == v.size());
    CHECK(e["max"].get<double>() == Approx(*std::max_element(v.begin(), v.end())));
    CHECK(e["mean"].get<double>() ==
          Approx(std::accumulate(v.begin(), v.end(), 0.0) / double(v.size())));
    CHECK(r.out.find("speedup error, " + kernel + ": ") != std::string::npos);
  }
  // The agreement per kernel (text): each simulated kernel's count and MAPE.
  std::map<std::string, std::vector<double>> kernel_errors;
  for (const auto& g : rep["gemms"])
    if (g["simulated"].get<bool>())
      kernel_errors[g["kernel"].get<std::string>()].push_back(
          std::abs(g["error_percent"].get<double>()));
  REQUIRE(kernel_errors.size() > 1);
  CHECK(r.out.find("by kernel:\n") != std::string::npos);
  for (const auto& [kernel, errs] : kernel_errors) {
    const auto at = r.out.find("\n  " + kernel + " ");
    REQUIRE(at != std::string::npos);
    const std::string row = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    char mape[32];
    std::snprintf(mape, sizeof mape, "MAPE %5.1f%%",
                  std::accumulate(errs.begin(), errs.end(), 0.0) / double(errs.size()));
    INFO(row);
    CHECK(row.find(mape) != std::string::npos);
    CHECK(row.find(std::to_string(errs.size()) + " GEMMs") != std::string::npos);
  }
  CHECK(rep["numerics_preset"] == "h100");
  REQUIRE(std::filesystem::exists(out + "/scatter.gp"));
  {
    // Labelled ticks at 1-2-5 per decade, units on the axes, each group's MAPE in the title.
    std::ifstream gp_file(out + "/scatter.gp");
    const std::string gp((std::istreambuf_iterator<char>(gp_file)),
                         std::istreambuf_iterator<char>());
    CHECK(gp.find("set xtics (\"") != std::string::npos);
    CHECK(gp.find("(us, log scale)") != std::string::npos);
    CHECK(gp.find("our kernels: MAPE") != std::string::npos);
    CHECK(gp.find("vendor libraries: MAPE") != std::string::npos);
    CHECK(gp.find("nan") == std::string::npos);
  }
  if (r.out.find("scatter.png") != std::string::npos) {
    std::ifstream png(out + "/scatter.png", std::ios::binary);
    char magic[4] = {};
    png.read(magic, 4);
    CHECK(std::string(magic + 1, 3) == "PNG");
  }
  std::filesystem::remove_all(out);
}

TEST_CASE("validate_ubench_figures_against_counterparts", "[cli][validation]") {
  const std::string out = test::temp_dir("validate_ubench");
  const test::ProcResult r =
      test::run_stcsim("validate --measurements " + kUbenchFixture + " --out " + out + " -j 3");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("SYNTHETIC") != std::string::npos);
  CHECK(r.out.find("Not simulated (1 figures)") != std::string::npos);
  const nlohmann::json rep = read_json(out + "/report.json");
  std::map<std::string, nlohmann::json> rows;
  for (const auto& u : rep["ubench"])
    rows[u["name"].get<std::string>() + "|" + u["metric"].get<std::string>()] = u;
  REQUIRE(rows.size() == 9);
  // Throughput: the best of the benchmark's configurations.
  const auto& mma = rows.at("mma_sync_m16n8k16_f16_f32|throughput");
  CHECK(mma["measured"].get<double>() == 2000.0);
  CHECK(mma["configurations"] == 2);
  // Every figure a microbenchmark of the model yields is compared with it (stcsim ubench
  // on the h100 preset the device name maps to).
  for (const char* key :
       {"mma_sync_m16n8k16_f16_f32|throughput", "mma_sync_m16n8k16_f16_f32|latency",
        "mma_sp_ordered_m16n8k32_f16_f32|throughput", "dram_read|bandwidth", "dram_read|throughput",
        "ldmatrix_x4|throughput", "wgmma_m64n64k16_f16_f32|throughput", "l2_latency_far|latency"}) {
    INFO(key);
    const auto& u = rows.at(key);
    REQUIRE(u["simulated"] == true);
    const double pred = u["predicted"].get<double>(), meas = u["measured"].get<double>();
    CHECK(pred > 0);
    CHECK(u["error_percent"].get<double>() == Approx(100.0 * (pred - meas) / meas));
    CHECK(u["counterpart"].get<std::string>().rfind("stcsim ubench: ", 0) == 0);
  }
  // Per dense-equivalent flop, mma.sp runs 1.5x mma.sync on the h100 model: 8 cycles per
  // m16n8k32 through the 64 B/clk register B path against 6 per m16n8k16 (h100.yaml [10],
  // as an H200 measured: 4,082 against 2,726 flop/clk/SM).
  CHECK(rows.at("mma_sp_ordered_m16n8k32_f16_f32|throughput")["predicted"].get<double>() ==
        Approx(1.5 * mma["predicted"].get<double>()).epsilon(0.01));
  // A figure whose GPU samples probed the SM clock carries their median (what is not a
  // number is left out), in the report and on its line.
  CHECK(rows.at("ldmatrix_x4|throughput")["measured_sm_clock_mhz"].get<double>() == 1755.0);
  CHECK(rows.at("mma_sync_m16n8k16_f16_f32|throughput").count("measured_sm_clock_mhz") == 0);
  CHECK(r.out.find("[GPU's SM clock 1755 MHz, probed]") != std::string::npos);
  // The simulated figures are the ones `stcsim ubench` wrote.
  const nlohmann::json sim = read_json(out + "/sim/ubench/ubench.json");
  CHECK(sim["simulated"] == true);
  const auto& none = rows.at("l2_atomic_add|throughput");
  CHECK(none["simulated"] == false);
  CHECK(none["why_not"].get<std::string>().find("no benchmark yielding it") != std::string::npos);
  // A folder with both kinds of file: both reports.
  const std::string dir = test::temp_dir("validate_mixed");
  std::filesystem::copy_file(kFixture, dir + "/m.json");
  std::filesystem::copy_file(kUbenchFixture, dir + "/u.json");
  const test::ProcResult both =
      test::run_stcsim("validate --measurements " + dir + " --out " + out + " -j 3");
  INFO(both.out << both.err);
  CHECK(both.status == 0);
  CHECK(both.out.find("MAPE") != std::string::npos);
  CHECK(both.out.find("Microbenchmarks") != std::string::npos);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(out);
}

TEST_CASE("validate_exit_status_follows_max_mape", "[cli][validation]") {
  const std::string out = test::temp_dir("validate_mape");
  const std::string base = "validate --measurements " + kFixture + " --out " + out;
  CHECK(test::run_stcsim(base + " --max-mape 1000").status == 0);
  const test::ProcResult fail = test::run_stcsim(base + " --max-mape 0.001");
  CHECK(fail.status == 1);
  CHECK(fail.err.find("exceeds --max-mape") != std::string::npos);
  // Just above / below the report's own MAPE.
  const double mape = read_json(out + "/report.json")["ours"]["mape_percent"].get<double>();
  CHECK(test::run_stcsim(base + " --max-mape " + std::to_string(mape * 1.001)).status == 0);
  CHECK(test::run_stcsim(base + " --max-mape " + std::to_string(mape * 0.999)).status == 1);
  std::filesystem::remove_all(out);
}

// The hand-written examples of docs/validation.md: a CSV table and the same two entries in
// JSON give the same simulations, the same 2:4 pair, and name the same device.
TEST_CASE("validate_reads_a_hand_written_table_like_its_json", "[cli][validation]") {
  const std::string ex = std::string(STCSIM_SOURCE_DIR) + "/examples/measurements/";
  nlohmann::json rep[2];
  const char* files[] = {"a100_cusparselt_4096.csv", "a100_cusparselt_4096.json"};
  for (int i = 0; i < 2; ++i) {
    const std::string out = test::temp_dir("validate_handwritten");
    const test::ProcResult r =
        test::run_stcsim("validate -q --measurements " + ex + files[i] + " --out " + out);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("cusparselt / cublas") != std::string::npos);
    rep[i] = read_json(out + "/report.json");
    std::filesystem::remove_all(out);
  }
  CHECK(rep[0]["arch"] == "a100");
  CHECK(rep[0]["device"] == rep[1]["device"]);
  REQUIRE(rep[0]["gemms"].size() == 2);
  REQUIRE(rep[1]["gemms"].size() == 2);
  for (int g = 0; g < 2; ++g) {
    CHECK(rep[0]["gemms"][g]["kernel"] == rep[1]["gemms"][g]["kernel"]);
    CHECK(rep[0]["gemms"][g]["measured_us"] == rep[1]["gemms"][g]["measured_us"]);
    CHECK(rep[0]["gemms"][g]["predicted_us"] == rep[1]["gemms"][g]["predicted_us"]);
  }
  REQUIRE(rep[0]["speedups"].size() == 1);
  CHECK(rep[0]["speedups"][0]["predicted"] == rep[1]["speedups"][0]["predicted"]);
}

// A kernel the simulator has no counterpart for is listed with why and counted, not
// dropped (issue 17, item 6).
TEST_CASE("validate_lists_kernels_it_cannot_simulate", "[cli][validation]") {
  const std::string out = test::temp_dir("validate_torch");
  std::ofstream(out + "/t.csv") << "device,name,m,n,k,kernel,time_us\n"
                                << "NVIDIA A100,g,256,256,256,cublas,9.5\n"
                                << "NVIDIA A100,g,256,256,256,torch,11\n"
                                << "NVIDIA A100,h,256,256,256,torch,12\n";
  const test::ProcResult r =
      test::run_stcsim("validate -q --measurements " + out + "/t.csv --out " + out + "/v");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("kernel 'torch' has no simulated counterpart (known: stcsim_dense") !=
        std::string::npos);
  CHECK(r.out.find("2 measured entries not simulated, each listed above with why: torch x2") !=
        std::string::npos);
  const nlohmann::json rep = read_json(out + "/v/report.json");
  REQUIRE(rep["gemms"].size() == 3);
  CHECK(rep["gemms"][1]["simulated"] == false);
  std::filesystem::remove_all(out);
}

TEST_CASE("validate_input_errors_exit_2", "[cli][validation]") {
  const std::string out = test::temp_dir("validate_err");
  CHECK(test::run_stcsim("validate --measurements /nonexistent.json --out " + out).status == 2);
  std::ofstream(out + "/bad.json")
      << R"({"schema": "stcsim-measurements/1", "device": {"name": "X"}, "gemms": [{"name": "a"}]})";
  const test::ProcResult r =
      test::run_stcsim("validate --measurements " + out + "/bad.json --out " + out);
  CHECK(r.status == 2);
  CHECK(r.err.find("missing field 'm'") != std::string::npos);
  std::ofstream(out + "/unknown.json")
      << R"({"schema": "stcsim-measurements/1", "device": {"name": "Some GPU"}, "gemms": []})";
  const test::ProcResult u =
      test::run_stcsim("validate --measurements " + out + "/unknown.json --out " + out);
  CHECK(u.status == 2);
  CHECK(u.err.find("--arch") != std::string::npos);
  std::filesystem::remove_all(out);
}

// `validate --time warm` compares timing.warm_us under `--l2 repeat` (the report says which
// time it compares, and each GEMM's L2); an entry without warm_us is left out with why.
TEST_CASE("validate_time_warm_compares_warm_us_under_repeat", "[cli][validation]") {
  const std::string dir = test::temp_dir("validate_warm");
  const std::string file = dir + "/warm.json";
  std::ofstream(file) << R"({"schema": "stcsim-measurements/1", "synthetic": true,
    "device": {"name": "SYNTHETIC A100", "preset": "a100"},
    "gemms": [
      {"name": "a", "kernel": "cublas", "m": 256, "n": 256, "k": 256,
       "time_us": {"median": 12}, "timing": {"warm_us": {"median": 9}}},
      {"name": "b", "kernel": "cublas", "m": 512, "n": 256, "k": 256,
       "time_us": {"median": 14}}]})";
  const std::string warm_out = dir + "/warm", cold_out = dir + "/cold";
  const test::ProcResult w = test::run_stcsim("validate -q --measurements " + file +
                                              " --time warm --out " + warm_out + " -j 1");
  INFO(w.out << w.err);
  REQUIRE(w.status == 0);
  CHECK(w.out.find("times: timing.warm_us") != std::string::npos);
  const nlohmann::json wr = read_json(warm_out + "/report.json");
  CHECK(wr["time"] == "warm");
  CHECK(wr["gemms"][0]["simulated"] == true);
  CHECK(wr["gemms"][0]["l2"] == "repeat");
  CHECK(wr["gemms"][0]["measured_us"] == 9);
  CHECK(wr["gemms"][1]["simulated"] == false);
  CHECK(wr["gemms"][1]["why_not"].get<std::string>().find("timing.warm_us") != std::string::npos);
  const test::ProcResult c =
      test::run_stcsim("validate -q --measurements " + file + " --out " + cold_out + " -j 1");
  REQUIRE(c.status == 0);
  const nlohmann::json cr = read_json(cold_out + "/report.json");
  CHECK(cr["time"] == "cold");
  CHECK(cr["gemms"][0]["l2"] == "flush");
  CHECK(cr["gemms"][0]["measured_us"] == 12);
  CHECK(cr["gemms"][1]["simulated"] == true);
  // The flushed and the repeated run of the same GEMM are simulations of their own.
  CHECK(wr["gemms"][0]["predicted_us"] != cr["gemms"][0]["predicted_us"]);
  const test::ProcResult bad =
      test::run_stcsim("validate -q --measurements " + file + " --time hot --out " + cold_out);
  CHECK(bad.status != 0);
}
