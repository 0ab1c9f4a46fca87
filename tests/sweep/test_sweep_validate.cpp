// Validation before anything runs: every point's configuration is built as `stcsim run`
// would build it, so each bad key or value fails up front, naming the spec line.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/sweep/validate_points.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::sweep;

namespace {

void check_valid(const std::string& body) {
  INFO(body);
  CHECK_NOTHROW(
      validate_plan(SweepPlan(parse_sweep_spec_text("schema_version: 1\n" + body, "v.yaml"))));
}

void check_invalid(const std::string& body, std::vector<std::string> parts) {
  INFO(body);
  try {
    validate_plan(SweepPlan(parse_sweep_spec_text("schema_version: 1\n" + body, "v.yaml")));
    FAIL("no error");
  } catch (const stcsim::InputError& e) {
    for (const auto& p : parts) CHECK_THAT(e.what(), Catch::Contains(p));
  }
}

// Removes a test's scratch folder when the test case ends, pass or fail.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::string kBase = "base: a100\nworkloads: [256x256x256]\n";

}  // namespace

TEST_CASE("sweep_validate_accepts_a_valid_space", "[sweep]") {
  check_valid(
      kBase +
      "set: {dram.efficiency: 0.8}\nvary:\n  l2.capacity_kib: {from: 10240, to: 40960, step: "
      "10240}\n"
      "  tensor_core.sparse_patterns: ['2:4', '2:4,1:4']\n  sparsity: [dense, '1:4']\n"
      "  dtype: [fp16, bf16]\n  base: [a100, h100]\n  mapping.smem_layout: [swizzled, padded]\n");
}

TEST_CASE("sweep_validate_rejects_each_bad_key_and_value", "[sweep]") {
  // Line 4 is the first value under vary (line 1 schema_version, 2 base, 3 workloads).
  check_invalid(kBase + "vary:\n  l2.capacity: [1024]\n",
                {"v.yaml:5", "vary l2.capacity = '1024'", "unknown key 'l2.capacity'",
                 "nearest valid key: 'l2.capacity_kib'"});
  check_invalid(kBase + "vary:\n  l3.capacity_kib: [1024]\n",
                {"v.yaml:5", "unknown section 'l3'", "nearest valid: 'l2'"});
  check_invalid(kBase + "vary:\n  l2.ways:\n    - 16\n    - lots\n",
                {"v.yaml:7", "vary l2.ways = 'lots' (point 1)"});
  check_invalid(kBase + "vary:\n  sm.sub_cores: [4, 0]\n", {"v.yaml:5", "vary sm.sub_cores = '0'"});
  check_invalid(kBase + "vary:\n  mapping.smem_layout: [swizzled, diagonal]\n",
                {"v.yaml:5", "'diagonal'"});
  check_invalid(kBase + "vary:\n  l2.impl: [sectored_lru, magic]\n",
                {"v.yaml:5", "l2.impl = 'magic'"});
  check_invalid(kBase + "set:\n  dram.bandwidth_gbs: 100\n",
                {"v.yaml:5", "set dram.bandwidth_gbs", "nearest valid key: 'dram.bandwidth_gbps'"});
  check_invalid(kBase + "vary:\n  base: [a100, b200]\n",
                {"v.yaml:5", "base 'b200'", "unknown preset"});
  check_invalid("base: nope.yaml\nworkloads: [8x8x8]\n",
                {"base '", "nope.yaml", "cannot open config file"});
  check_invalid(kBase + "vary:\n  dtype: [fp16, fp12]\n", {"v.yaml:5", "dtype", "fp12"});
  check_invalid(kBase + "vary:\n  sparsity: ['2:4', '3:4']\n", {"v.yaml:5", "sparsity", "3:4"});
  check_invalid(kBase + "sparsity: '5:3'\n", {"v.yaml", "sparsity", "5:3"});
  check_invalid(kBase + "vary:\n  l2: [flush, cold]\n",
                {"v.yaml:5", "l2: expected flush, warm or repeat, got 'cold'"});
  check_invalid("base: a100\nworkloads: [12x12]\n", {"v.yaml:3", "workload '12x12'", "MxNxK"});
  check_invalid("base: a100\nworkloads:\n  - {gemm: 8x8x8, dtype: fp8}\n", {"v.yaml:4", "fp8"});
  check_invalid("base: a100\nworkloads:\n  - {trace: /no/such.trace}\n",
                {"v.yaml:4", "workload 'such'", "cannot open trace"});
  const RemoveOnExit dir{stcsim::test::temp_dir("swtrace")};
  const std::string bad = dir.path + "/bad.trace";
  std::ofstream(bad) << "stcsim-trace 0\n64x64 fp16\n";
  check_invalid("base: a100\nworkloads:\n  - {trace: " + bad + "}\n", {"v.yaml:4", "bad.trace:2"});
}

TEST_CASE("sweep_validate_names_the_first_failing_override_of_the_first_bad_point", "[sweep]") {
  // Overrides are checked section by section and remembered; the error must still be the
  // one a point-by-point check gives: the first bad point, its first bad override.
  // Across sections: p0 (16, 8) is valid; p1 (16, 0) fails on dram.channels, not l2.
  check_invalid(kBase + "vary:\n  l2.ways: [16, 99]\n  dram.channels: [8, 0]\n",
                {"v.yaml:6", "dram.channels = '0' (point 1)"});
  // Within one section, where validity depends on another key of the point: a TMA box
  // cost is a key of tma_unit only, so p0 (tma_unit) passes and p1 (none) fails on it.
  check_invalid(kBase + "vary:\n  tma.impl: [tma_unit, none]\n  tma.issue_cycles_per_box: [2]\n",
                {"v.yaml:6", "tma.issue_cycles_per_box = '2' (point 1)"});
  check_valid(kBase + "vary:\n  tma.impl: [tma_unit]\n  tma.issue_cycles_per_box: [2, 4]\n");
}
