// Hostile model files (issue 20): each of these once crashed the loader, read a file
// outside the model's folder, overflowed the stack or truncated an earlier output. Now
// each is a clean InputError that names the file and what was wrong.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/load_weights.h"
#include "workloads/loaders/npy.h"
#include "workloads/loaders/safetensors.h"
#include "workloads/loaders/tfjs.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;
namespace fs = std::filesystem;

namespace {

Bytes safetensors_with_header(const std::string& json) {
  Bytes b;
  for (int i = 0; i < 8; ++i) b.push_back(std::uint8_t(json.size() >> (8 * i)));
  b.insert(b.end(), json.begin(), json.end());
  return b;
}

const char* kManifest =
    R"([{"paths": ["%s"], "weights": [{"name": "w", "shape": [2], "dtype": "float32"}]}])";

std::string manifest_naming(const std::string& shard) {
  std::string m = kManifest;
  m.replace(m.find("%s"), 2, shard);
  return m;
}

}  // namespace

TEST_CASE("hostile_json_number_beyond_a_double_is_an_input_error", "[hostile]") {
  // nlohmann throws out_of_range, not parse_error, for 1e999: it escaped as exit 1.
  const Bytes st = safetensors_with_header(
      R"({"w": {"dtype": "F32", "shape": [1e999], "data_offsets": [0, 0]}})");
  CHECK_THAT(
      input_error_of([&] { parse_safetensors(st, "big.safetensors"); }),
      Catch::Contains("big.safetensors: byte 8") && Catch::Contains("expected a JSON header"));
  CHECK_THAT(
      input_error_of([] { parse_tfjs(R"([{"paths": [], "weights": [1e999]}])", "m/model.json"); }),
      Catch::Contains("m/model.json: byte 0") && Catch::Contains("expected JSON"));
}

TEST_CASE("hostile_json_nested_deeper_than_the_limit_is_refused_before_parsing", "[hostile]") {
  // 200,000 levels once overflowed the stack in a recursive copy of the parsed value.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  CHECK_THAT(input_error_of([&] { parse_tfjs(deep, "d/model.json"); }),
             Catch::Contains("d/model.json: byte 256") && Catch::Contains("nests deeper than 256"));
  const Bytes st =
      safetensors_with_header("{\"a\": " + std::string(300, '[') + std::string(300, ']') + "}");
  CHECK_THAT(input_error_of([&] { parse_safetensors(st, "d.safetensors"); }),
             Catch::Contains("d.safetensors: byte") && Catch::Contains("nests deeper"));
  // Brackets inside strings do not count.
  const Bytes ok =
      safetensors_with_header("{\"__metadata__\": {\"k\": \"" + std::string(1000, '[') + "\"}}");
  CHECK(parse_safetensors(ok, "ok.safetensors").empty());
}

TEST_CASE("hostile_tfjs_shard_paths_stay_inside_the_model_folder", "[hostile]") {
  TempDir dir;
  fs::create_directories(dir.file("model"));
  fs::create_directories(dir.file("outside"));
  write_file(dir.file("outside/secret.bin"), Bytes(8, 0));
  write_file(dir.file("model/ok.bin"), Bytes(8, 0));
  const std::string json = dir.file("model/model.json");
  const auto error_for = [&](const std::string& shard) {
    write_file(json, manifest_naming(shard));
    return input_error_of([&] { load_tfjs(json); });
  };
  // Followed before: "../../dev/zero" read until memory ran out.
  CHECK_THAT(error_for("../outside/secret.bin"), Catch::Contains("model.json: byte") &&
                                                     Catch::Contains("'../outside/secret.bin'") &&
                                                     Catch::Contains("outside"));
  CHECK_THAT(error_for("../../../../../../../../dev/zero"), Catch::Contains("dev/zero"));
  CHECK_THAT(error_for("/dev/zero"), Catch::Contains("absolute path"));
  // A symlink inside the folder that leads out is refused too (resolved first).
  fs::create_symlink(dir.file("outside/secret.bin"), dir.file("model/link.bin"));
  CHECK_THAT(error_for("link.bin"),
             Catch::Contains("'link.bin' resolves to") && Catch::Contains("outside"));
  // Inside, through a sub-folder and back, is fine.
  fs::create_directories(dir.file("model/sub"));
  write_file(json, manifest_naming("sub/../ok.bin"));
  CHECK(load_tfjs(json).weights.size() == 1);
}

TEST_CASE("hostile_paths_that_are_not_regular_files_are_refused_by_name", "[hostile]") {
  TempDir dir;
  fs::create_directories(dir.file("x.npy"));
  CHECK_THAT(input_error_of([&] { load_weights(dir.file("x.npy")); }),
             Catch::Contains("x.npy") && Catch::Contains("is a directory"));
  CHECK_THAT(input_error_of([] { load_weights("/dev/zero.npy"); }), Catch::Contains("cannot open"));
  fs::create_directories(dir.file("m"));
  fs::create_directories(dir.file("m/shard.bin"));
  write_file(dir.file("m/model.json"), manifest_naming("shard.bin"));
  CHECK_THAT(input_error_of([&] { load_tfjs(dir.file("m/model.json")); }),
             Catch::Contains("shard.bin") && Catch::Contains("is a directory"));
}

TEST_CASE("hostile_files_larger_than_the_memory_limit_are_refused_before_reading", "[hostile]") {
  TempDir dir;
  write_file(dir.file("big.npy"), Bytes(4096, 0));
  const auto saved = stcsim::max_memory_bytes();
  stcsim::max_memory_bytes() = 1024;
  const std::string e = input_error_of([&] { load_npy(dir.file("big.npy")); });
  stcsim::max_memory_bytes() = saved;
  CHECK_THAT(e, Catch::Contains("big.npy (4096 bytes)") && Catch::Contains("--max-memory"));
}

TEST_CASE("hostile_save_npy_replaces_by_rename_never_in_place", "[hostile]") {
  // A failed --functional run once truncated the previous run's files, rewritten in
  // place. A hard link to the old file keeps seeing the old bytes when the new file is
  // renamed over the name, and sees the truncation when the file is rewritten in place.
  TempDir dir;
  const Tensor a{"a", {2}, {1.f, 2.f}, "float32"}, b{"b", {3}, {3.f, 4.f, 5.f}, "float32"};
  save_npy(dir.file("y.npy"), a);
  fs::create_hard_link(dir.file("y.npy"), dir.file("old.npy"));
  save_npy(dir.file("y.npy"), b);
  CHECK(load_npy(dir.file("old.npy"))[0].data == a.data);
  CHECK(load_npy(dir.file("y.npy"))[0].data == b.data);
  for (const auto& e : fs::directory_iterator(dir.file("")))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  // A write into a missing folder fails cleanly and leaves nothing.
  CHECK_THAT(input_error_of([&] { save_npy(dir.file("no/such/y.npy"), a); }),
             Catch::Contains("no/such/y.npy: cannot write"));
}
