// The harness's no-loss machinery, on the CPU: atomic part files and their merge into a
// measurement file that `stcsim validate` reads; child-process isolation (a crash and a
// hang each cost one entry, the parent survives); where vendor libraries are looked for.
#include <signal.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/support/run_stcsim.h"
#include "validation/compare/measurements.h"
#include "validation/harness/isolation.h"
#include "validation/harness/library_path.h"
#include "validation/harness/result_writer.h"

using namespace stcsim::validation;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
json entry(const std::string& name, const std::string& kernel, double us, double mhz) {
  return {{"name", name},
          {"m", 128},
          {"n", 256},
          {"k", 64},
          {"dtype", "fp16"},
          {"sparsity", "dense"},
          {"kernel", kernel},
          {"mapping", nullptr},
          {"time_us", {{"median", us}, {"runs", 3}}},
          {"sm_clock_mhz_median", mhz},
          {"check", {{"passed", true}}}};
}
}  // namespace

TEST_CASE("writer_atomic_file_replaces_whole", "[validation][writer]") {
  const std::string dir = stcsim::test::temp_dir("writer");
  const std::string f = dir + "/a/b/out.json";
  write_file_atomic(f, "first\n");
  write_file_atomic(f, "second\n");
  std::ifstream in(f);
  std::string s((std::istreambuf_iterator<char>(in)), {});
  CHECK(s == "second\n");
  for (const auto& e : fs::directory_iterator(dir + "/a/b"))  // no temporary left behind
    CHECK(e.path().filename() == "out.json");
}

TEST_CASE("writer_parts_merge_into_a_readable_measurement_file", "[validation][writer]") {
  const std::string dir = stcsim::test::temp_dir("parts");
  const std::string out = dir + "/m.json", parts = parts_dir_for(out);
  write_part(parts, Part{1, "cublas", entry("g1", "cublas", 20, 1900), nullptr, "ok", false});
  write_part(parts, Part{0, "dense", entry("g0", "stcsim_dense", 10, 1980), nullptr, "", false});
  write_part(parts, Part{0, "cusparselt", nullptr,
                         json{{"name", "g0"}, {"kernel", "cusparselt"}, {"why", "absent: x"}},
                         "absent: x", false});
  write_part(parts,
             Part{2, "sp24", nullptr,
                  json{{"name", "g2"}, {"kernel", "sp24"}, {"why", "fault: signal 11"}}, "", true});
  std::ofstream(parts + "/g00009_junk.json") << "{ not json";  // a torn file is reported
  CHECK(part_exists(parts, 0, "dense"));
  CHECK_FALSE(part_exists(parts, 1, "dense"));
  std::vector<std::string> bad;
  const std::vector<Part> all = read_parts(parts, &bad);
  REQUIRE(all.size() == 4);
  CHECK(bad.size() == 1);
  CHECK(all[0].gemm_index == 0);  // file-name order = GEMM order
  CHECK(all[3].gemm_index == 2);
  CHECK(all[3].check_failed);
  const json header = {{"schema", "stcsim-measurements/1"},
                       {"synthetic", true},
                       {"command", "test"},
                       {"device", {{"name", "NVIDIA H200"}, {"preset", "h100"}}}};
  const json doc = merge_parts(header, all);
  CHECK(doc["gemms"].size() == 2);
  CHECK(doc["skipped"].size() == 2);
  CHECK(doc["baselines"]["cublas"] == "ok");
  CHECK(doc["baselines"]["cusparselt"] == "absent: x");
  CHECK(doc["device"]["sm_clock_mhz"]["median"].get<double>() == Approx(1940));
  write_file_atomic(out, doc.dump(1));
  // What stcsim validate reads.
  const MeasurementFile mf = parse_measurements(doc, out);
  REQUIRE(mf.gemms.size() == 2);
  CHECK(mf.gemms[0].kernel == "stcsim_dense");
  CHECK(mf.gemms[0].time_us == 10);
  CHECK(*mf.sm_clock_mhz == Approx(1940));
}

TEST_CASE("isolation_crash_and_hang_cost_one_child", "[validation][isolation]") {
  const std::string dir = stcsim::test::temp_dir("iso");
  const std::string progress = dir + "/progress";
  const ChildOutcome ok = run_isolated([] { return 0; }, progress, 5);
  CHECK(ok.exited);
  CHECK(ok.status == 0);
  const ChildOutcome three = run_isolated(
      [&] {
        report_progress(progress, 4);
        return 3;
      },
      progress, 5);
  CHECK(three.exited);
  CHECK(three.status == 3);
  CHECK(three.last_progress == 4);
  const ChildOutcome crash = run_isolated(
      [&] {
        report_progress(progress, 7);
        ::raise(SIGSEGV);
        return 0;
      },
      progress, 5);
  CHECK_FALSE(crash.exited);
  CHECK(crash.signal == SIGSEGV);
  CHECK(crash.last_progress == 7);
  CHECK(crash.describe().find("signal 11") != std::string::npos);
  const ChildOutcome hang = run_isolated(
      [&] {
        report_progress(progress, 2);
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return 0;
      },
      progress, 0.5);
  CHECK(hang.timed_out);
  CHECK(hang.last_progress == 2);
  const ChildOutcome thrown =
      run_isolated([]() -> int { throw std::runtime_error("x"); }, progress, 5);
  CHECK(thrown.exited);
  CHECK(thrown.status == 70);
}

TEST_CASE("library_search_override_then_soname_then_site_packages", "[validation][libraries]") {
  const std::string site = stcsim::test::temp_dir("site");
  fs::create_directories(site + "/nvidia/cusparselt/lib");
  fs::create_directories(site + "/nvidia/cu13/lib");
  std::ofstream(site + "/nvidia/cusparselt/lib/libcusparseLt.so.0") << "not a library";
  std::ofstream(site + "/nvidia/cu13/lib/libcublas.so.13") << "not a library";
  ::setenv("STCSIM_PYTHON_SITE_PACKAGES", site.c_str(), 1);
  ::setenv("STCSIM_TEST_LIB_OVERRIDE", "/override/libcusparseLt.so.0", 1);
  const std::vector<std::string> c =
      library_candidates("STCSIM_TEST_LIB_OVERRIDE", {"libcusparseLt.so.0", "libcusparseLt.so"});
  REQUIRE(c.size() >= 4);
  CHECK(c[0] == "/override/libcusparseLt.so.0");
  CHECK(c[1] == "libcusparseLt.so.0");
  CHECK(c[2] == "libcusparseLt.so");
  CHECK(c[3] == site + "/nvidia/cusparselt/lib/libcusparseLt.so.0");
  CHECK(find_in_site_packages(site, {"libcublas.so.13"}) ==
        std::vector<std::string>{site + "/nvidia/cu13/lib/libcublas.so.13"});
  std::string why;
  const LoadedLibrary l = load_first(c, nullptr, why);  // none is a real library
  CHECK(l.handle == nullptr);
  CHECK(why.rfind("absent: none of /override/libcusparseLt.so.0", 0) == 0);
  ::unsetenv("STCSIM_TEST_LIB_OVERRIDE");
  ::unsetenv("STCSIM_PYTHON_SITE_PACKAGES");
}
