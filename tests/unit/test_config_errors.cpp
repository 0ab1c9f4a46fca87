// Every kind of config error names the file, the line, the key and the nearest valid key.
#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/config/config.h"
#include "sim/core/input_error.h"

using namespace stcsim;

namespace {
std::string error_of(const std::string& yaml) {
  try {
    load_config_text(yaml, "my.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
const std::string kHead = "schema_version: 1\nbase: a100\n";
}  // namespace

TEST_CASE("config_presets_all_load", "[config]") {
  for (const auto& name : preset_names()) {
    INFO(name);
    const Config c = load_arch(name);
    CHECK(c.name == name);
    CHECK(!c.sources.empty());
    CHECK(c.section("gpu").params.get_int("num_sms") > 0);
  }
  CHECK(preset_names().size() >= 3);
}

TEST_CASE("config_unknown_key_names_file_line_key_and_nearest", "[config]") {
  const auto e = error_of(kHead + "l2:\n  capacity_kb: 100\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:4"));
  CHECK_THAT(e, Catch::Contains("l2.capacity_kb"));
  CHECK_THAT(e, Catch::Contains("nearest valid key: 'l2.capacity_kib'"));
}

TEST_CASE("config_unknown_section_names_nearest", "[config]") {
  const auto e = error_of(kHead + "dramm:\n  channels: 4\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:3"));
  CHECK_THAT(e, Catch::Contains("'dramm'"));
  CHECK_THAT(e, Catch::Contains("nearest valid key: 'dram'"));
}

TEST_CASE("config_wrong_type", "[config]") {
  const auto e = error_of(kHead + "gpu:\n  num_sms: many\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:4"));
  CHECK_THAT(e, Catch::Contains("gpu.num_sms"));
  CHECK_THAT(e, Catch::Contains("expected int"));
  const auto f = error_of(kHead + "dram:\n  efficiency: [1, 2]\n");
  CHECK_THAT(f, Catch::Contains("dram.efficiency"));
  CHECK_THAT(f, Catch::Contains("got a list"));
  const auto g = error_of(kHead + "mapping:\n  smem_layout: zigzag\n");
  CHECK_THAT(g, Catch::Contains("expected one of swizzled|padded|naive"));
}

TEST_CASE("config_out_of_range", "[config]") {
  const auto e = error_of(kHead + "dram:\n  efficiency: 1.5\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:4"));
  CHECK_THAT(e, Catch::Contains("dram.efficiency"));
  CHECK_THAT(e, Catch::Contains("out of range"));
  CHECK_THAT(error_of(kHead + "gpu:\n  num_sms: 0\n"), Catch::Contains("out of range"));
}

TEST_CASE("config_schema_version_required_and_checked", "[config]") {
  CHECK_THAT(error_of("base: a100\n"), Catch::Contains("missing 'schema_version'"));
  const auto e = error_of("schema_version: 7\nbase: a100\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:1"));
  CHECK_THAT(e, Catch::Contains("schema_version 7 is not supported"));
}

TEST_CASE("config_missing_required_key", "[config]") {
  const auto e = error_of("schema_version: 1\ngpu:\n  clock_mhz: 1000\n");
  CHECK_THAT(e, Catch::Contains("required key"));
  CHECK_THAT(e, Catch::Contains("my.yaml"));
}

TEST_CASE("config_malformed_yaml_names_line", "[config]") {
  const auto e = error_of("schema_version: 1\ngpu: {clock_mhz: 1000\nsm: [\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:"));
  CHECK_THAT(e, Catch::Contains("malformed YAML"));
}

TEST_CASE("config_unknown_impl_lists_registered", "[config]") {
  const auto e = error_of(kHead + "l2:\n  impl: magic_cache\n");
  CHECK_THAT(e, Catch::Contains("my.yaml:4"));
  CHECK_THAT(e, Catch::Contains("registered: sectored_lru"));
}

TEST_CASE("config_unknown_preset_lists_presets", "[config]") {
  try {
    load_arch("a200");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("a100"));
    CHECK_THAT(e.what(), Catch::Contains("h100"));
  }
  CHECK_THROWS_WITH(load_arch("/no/such/file.yaml"), Catch::Contains("cannot open"));
}

TEST_CASE("config_overrides", "[config]") {
  Config c = load_arch("a100");
  apply_override(c, "l2.capacity_kib=20480");
  CHECK(c.section("l2").params.get_int("capacity_kib") == 20480);
  CHECK(c.section("l2").sources.at("capacity_kib").describe() == "-p");
  CHECK_THROWS_WITH(apply_override(c, "l2.capacity=1"),
                    Catch::Contains("nearest valid key: 'l2.capacity_kib'"));
  CHECK_THROWS_WITH(apply_override(c, "l3.capacity_kib=1"), Catch::Contains("nearest valid: 'l2'"));
  CHECK_THROWS_WITH(apply_override(c, "l2.capacity_kib=lots"), Catch::Contains("expected int"));
  CHECK_THROWS_WITH(apply_override(c, "nonsense"), Catch::Contains("section.key=value"));
}

TEST_CASE("config_resolved_json_traces_every_value", "[config]") {
  const Config c = load_arch("a100");
  const auto j = c.to_json();
  CHECK(j["schema_version"] == 1);
  CHECK(j["hardware"]["gpu"]["params"]["clock_mhz"]["value"] == 1410.0);
  CHECK(j["hardware"]["gpu"]["params"]["clock_mhz"]["unit"] == "MHz");
  CHECK_THAT(j["hardware"]["gpu"]["params"]["clock_mhz"]["from"].get<std::string>(),
             Catch::Contains("presets/a100.yaml:"));
  // The line of "  ways:" in the preset text.
  const std::string& text = preset_text("a100");
  const int line =
      1 + int(std::count(text.begin(), text.begin() + text.find("\n  ways:") + 1, '\n'));
  CHECK(j["hardware"]["l2"]["params"]["ways"]["from"] ==
        "presets/a100.yaml:" + std::to_string(line));
}

TEST_CASE("config_short_yaml_names_are_files_not_presets", "[config]") {
  // "a.yml" (5 characters) once fell through to the preset lookup.
  for (const std::string name : {"a.yml", "ab.yaml", "x.yml"}) {
    INFO(name);
    try {
      load_arch(name);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()) == name + ": cannot open config file");
    }
  }
}

TEST_CASE("config_mapping_kernel_defaults_to_auto", "[config]") {
  const Config c = load_arch("a100");
  CHECK(c.section("mapping").params.get_string("kernel") == "auto");
  CHECK(c.section("mapping").params.get_string("unstructured_kernel") == "block_sparse_gemm");
}
