// Sweep spec parsing: every construct, and every error naming the file, line and key.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "sim/sweep/sweep_spec.h"

using namespace stcsim::sweep;

namespace {

const char* kFull = R"(schema_version: 1
name: full
base: a100
set:
  dram.efficiency: 0.9
vary:
  l2.capacity_kib: [10240, 20480]
  dram.bandwidth_gbps: {from: 1000, to: 3000, step: 1000}
  gpu.clock_mhz: {from: 400, to: 1600, factor: 2}
  smem_split:
    sm.smem_kib: [100, 164]
    sm.max_smem_per_cta_kib: [99, 163]
  sparsity: [dense, "2:4"]
workloads:
  - 256x256x256
  - {gemm: 512x768x768, name: attn_out, dtype: bf16}
  - {trace: traces/bert.trace}
dtype: fp16
reference: {l2.capacity_kib: 20480, sm.smem_kib: 164}
)";

// Parsing `text` throws an InputError whose message contains every one of `parts`.
void check_error(const std::string& text, std::vector<std::string> parts) {
  INFO(text);
  try {
    parse_sweep_spec_text(text, "s.yaml");
    FAIL("no error");
  } catch (const stcsim::InputError& e) {
    for (const auto& p : parts) CHECK_THAT(e.what(), Catch::Contains(p));
  }
}

const std::string kHead = "schema_version: 1\nbase: a100\n";
const std::string kWork = "workloads: [256x256x256]\n";

}  // namespace

TEST_CASE("sweep_spec_parses_every_construct", "[sweep]") {
  const SweepSpec s = parse_sweep_spec_text(kFull, "/specs/full.yaml");
  CHECK(s.name == "full");
  CHECK(s.base == "a100");
  REQUIRE(s.set.size() == 1);
  CHECK(s.set[0] == std::pair<std::string, std::string>{"dram.efficiency", "0.9"});
  REQUIRE(s.axes.size() == 5);
  CHECK(s.axes[0].keys == std::vector<std::string>{"l2.capacity_kib"});
  CHECK(s.axes[0].values == std::vector<std::vector<std::string>>{{"10240"}, {"20480"}});
  CHECK(s.axes[0].where[1].line == 7);
  CHECK(s.axes[1].values == std::vector<std::vector<std::string>>{{"1000"}, {"2000"}, {"3000"}});
  CHECK(s.axes[2].values == std::vector<std::vector<std::string>>{{"400"}, {"800"}, {"1600"}});
  CHECK(s.axes[3].name == "smem_split");
  CHECK(s.axes[3].keys == std::vector<std::string>{"sm.smem_kib", "sm.max_smem_per_cta_kib"});
  CHECK(s.axes[3].values == std::vector<std::vector<std::string>>{{"100", "99"}, {"164", "163"}});
  CHECK(s.axes[4].values == std::vector<std::vector<std::string>>{{"dense"}, {"2:4"}});
  REQUIRE(s.workloads.size() == 3);
  CHECK(s.workloads[0].name == "256x256x256");
  CHECK(s.workloads[0].gemm == "256x256x256");
  CHECK(s.workloads[1].name == "attn_out");
  CHECK(s.workloads[1].dtype == "bf16");
  CHECK(s.workloads[2].name == "bert");
  CHECK(s.workloads[2].trace == "/specs/traces/bert.trace");  // relative to the spec
  CHECK(s.reference.at("sm.smem_kib") == "164");
}

TEST_CASE("sweep_spec_defaults_and_paths", "[sweep]") {
  const SweepSpec s = parse_sweep_spec_text(kHead + kWork, "/a/b/my_sweep.yaml");
  CHECK(s.name == "my_sweep");  // from the file name
  CHECK(s.axes.empty());        // one point: the base
  CHECK(s.dtype == "fp16");
  CHECK(s.sparsity == "dense");
  const SweepSpec f =
      parse_sweep_spec_text("schema_version: 1\nbase: ../cfg/mine.yaml\n" + kWork, "/a/b/s.yaml");
  CHECK(f.base == "/a/cfg/mine.yaml");  // a config file, relative to the spec
  const SweepSpec r = parse_sweep_spec_text(
      kHead + kWork + "vary:\n  dram.efficiency: {from: 0.5, to: 0.8, step: 0.1}\n", "s.yaml");
  CHECK(r.axes[0].values ==
        std::vector<std::vector<std::string>>{{"0.5"}, {"0.6"}, {"0.7"}, {"0.8"}});
}

TEST_CASE("sweep_spec_model_workloads", "[sweep]") {
  const SweepSpec s = parse_sweep_spec_text(
      kHead +
          "workloads:\n  - {model: gpt2, prune: \"2:4\", batch: 2, tokens: 64}\n"
          "  - {model: nets/r18.csv, name: r18}\n  - {model: dlrm_kaggle}\n",
      "/a/b/s.yaml");
  REQUIRE(s.workloads.size() == 3);
  CHECK(s.workloads[0].model == "gpt2");  // a name of `stcsim models`
  CHECK(s.workloads[0].prune == "2:4");
  CHECK(s.workloads[0].batch == 2);
  CHECK(s.workloads[0].tokens == 64);
  CHECK(s.workloads[0].name == "gpt2_2:4");
  CHECK(s.workloads[1].model == "/a/b/nets/r18.csv");  // a path, relative to the spec
  CHECK(s.workloads[1].name == "r18");
  CHECK(s.workloads[2].prune == "dense");
  CHECK(s.workloads[2].name == "dlrm_kaggle");
  CHECK(s.workloads[2].trace.empty());  // traced when the sweep runs (model_workloads.h)
  check_error(kHead + "workloads:\n  - {model: gpt2, gemm: 8x8x8}\n",
              {"s.yaml:4", "exactly one of 'gemm', 'trace' or 'model'"});
  check_error(kHead + "workloads:\n  - {gemm: 8x8x8, prune: \"2:4\"}\n",
              {"s.yaml:4", "'prune' belongs to a {model: NAME} workload"});
  check_error(kHead + "workloads:\n  - {model: gpt2, batch: 0}\n",
              {"s.yaml:4", "'batch' must be a whole number from 1, got '0'"});
  check_error(kHead + "workloads:\n  - {model: gpt2, tokens: many}\n", {"'tokens'", "'many'"});
}

TEST_CASE("sweep_spec_errors_name_line_and_key", "[sweep]") {
  check_error("schema_version: 1\nbase: [a100\n", {"s.yaml:", "malformed YAML"});
  check_error("- a\n- b\n", {"s.yaml:1", "YAML mapping"});
  check_error("base: a100\n" + kWork, {"missing 'schema_version'"});
  check_error("schema_version: 2\nbase: a100\n" + kWork,
              {"s.yaml:1", "schema_version 2 is not supported"});
  check_error(kHead + kWork + "varry:\n  l2.ways: [8]\n",
              {"s.yaml:4", "unknown top-level key 'varry'", "nearest valid key: 'vary'"});
  check_error("schema_version: 1\n" + kWork, {"missing 'base'"});
  check_error(kHead, {"missing 'workloads'"});
  check_error(kHead + "workloads: []\n", {"s.yaml:3", "non-empty list"});
  check_error(kHead + kWork + "vary:\n  capacity: [1, 2]\n",
              {"s.yaml:5", "'capacity' is neither section.key"});
  check_error(kHead + kWork + "vary:\n  l2.ways.x: [1]\n", {"s.yaml:5", "'l2.ways.x'"});
  check_error(kHead + kWork + "vary:\n  l2.ways: []\n",
              {"s.yaml:5", "'l2.ways': the list of values is empty"});
  check_error(kHead + kWork + "vary:\n  l2.ways: [8, 16, 8]\n",
              {"s.yaml:5", "value '8' is listed twice"});
  check_error(kHead + kWork + "vary:\n  l2.ways: [[8]]\n", {"s.yaml:5", "single value"});
  check_error(kHead + kWork + "vary:\n  l2.ways: 8\n",
              {"s.yaml:5", "'l2.ways': expected a list of values or a range"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 8}\n",
              {"s.yaml:5", "needs from, to and one of step or factor"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 8, to: 16, step: 4, factor: 2}\n",
              {"one of step or factor"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 8, to: 16, stride: 4}\n",
              {"s.yaml:5", "unknown range key", "'stride'", "nearest valid key: 'step'"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 8, to: 16, step: 0}\n",
              {"s.yaml:5: l2.ways", "step > 0"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 16, to: 8, step: 1}\n", {"from <= to"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: a, to: 8, step: 1}\n",
              {"range 'from' must be a number, got 'a'"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 1, to: 8, factor: 1}\n", {"factor > 1"});
  check_error(kHead + kWork + "vary:\n  l2.ways: {from: 1, to: 1000000000, step: 1}\n",
              {"more than 100000 values"});
  check_error(
      kHead + kWork + "vary:\n  g:\n    sm.smem_kib: [1, 2]\n    sm.max_ctas: [1]\n",
      {"s.yaml:7", "zipped group 'g'", "'sm.max_ctas' has 1 values but 'sm.smem_kib' has 2"});
  check_error(kHead + kWork + "vary:\n  g: {}\n", {"s.yaml:5", "zipped group 'g' is empty"});
  check_error(kHead + kWork + "set:\n  l2.ways: 8\nvary:\n  l2.ways: [8, 16]\n",
              {"s.yaml:7", "'l2.ways' is given more than once"});
  check_error(kHead + kWork + "set:\n  sparsity: 2:4\n",
              {"s.yaml:5", "put 'sparsity' at the top level"});
  check_error(kHead + kWork + "set:\n  l2.ways: [8]\n",
              {"s.yaml:5", "'l2.ways' must be a single value"});
  check_error(kHead + "workloads:\n  - {gemm: 8x8x8, trace: t}\n",
              {"s.yaml:4", "exactly one of 'gemm', 'trace' or 'model'"});
  check_error(kHead + "workloads:\n  - {gem: 8x8x8}\n",
              {"s.yaml:4", "unknown workload key 'gem'", "nearest valid key: 'gemm'"});
  check_error(kHead + "workloads:\n  - 8x8x8\n  - {gemm: 16x16x16, name: 8x8x8}\n",
              {"s.yaml:5", "two workloads are named '8x8x8'"});
  check_error(kHead + "workloads:\n  - {gemm: 8x8x8, name: 'a,b'}\n", {"may not contain commas"});
  check_error(kHead + kWork + "vary:\n  l2.ways: [8, 16]\nreference: {l2.slices: 4}\n",
              {"s.yaml:6", "reference key 'l2.slices' is not varied"});
  check_error(kHead + kWork + "reference: [1]\n", {"s.yaml:4", "'reference' must be a mapping"});
}
