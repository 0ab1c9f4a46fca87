// safetensors: every supported dtype decodes, __metadata__ is returned, and bad headers
// (JSON, dtype, shapes vs offsets, overlap, gaps, out of range) and truncations give
// InputError naming the file and a byte offset.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/safetensors.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

Bytes safetensors_file(const std::string& header, const Bytes& data) {
  Bytes b;
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(header.size() >> (8 * i)));
  b.insert(b.end(), header.begin(), header.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// w: F32 [2, 2] at [0, 16); h: F16 [3] at [16, 22); b: BF16 [2] at [22, 26); q: I8 [2] at [26, 28).
const std::string kHeader =
    R"({"__metadata__": {"format": "pt", "step": "7"},
        "q": {"dtype": "I8", "shape": [2], "data_offsets": [26, 28]},
        "w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
        "h": {"dtype": "F16", "shape": [3], "data_offsets": [16, 22]},
        "b": {"dtype": "BF16", "shape": [2], "data_offsets": [22, 26]}})";

Bytes data() {
  Bytes d;
  for (float v : {1.f, -2.f, 0.5f, 4.f}) append_f32(d, v);
  for (std::uint8_t x : {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x00}) d.push_back(x);  // fp16 1, -2, 0
  for (std::uint8_t x : {0x80, 0x3f, 0x40, 0xc0}) d.push_back(x);              // bf16 1, -3
  for (std::uint8_t x : {0xff, 0x05}) d.push_back(x);                          // int8 -1, 5
  return d;
}

std::string err(const std::string& header, const Bytes& d = data()) {
  return input_error_of([&] { parse_safetensors(safetensors_file(header, d), "m.safetensors"); });
}

}  // namespace

TEST_CASE("safetensors_decodes_every_dtype_in_file_order", "[safetensors]") {
  TempDir dir;
  write_file(dir.file("m.safetensors"), safetensors_file(kHeader, data()));
  std::map<std::string, std::string> meta;
  const auto t = load_safetensors(dir.file("m.safetensors"), &meta);
  REQUIRE(t.size() == 4);
  CHECK(t[0].name == "w");
  CHECK(t[0].shape == std::vector<std::int64_t>{2, 2});
  CHECK(t[0].data == std::vector<float>{1.f, -2.f, 0.5f, 4.f});
  CHECK(t[1].name == "h");
  CHECK(t[1].stored_dtype == "float16");
  CHECK(t[1].data == std::vector<float>{1.f, -2.f, 0.f});
  CHECK(t[2].stored_dtype == "bfloat16");
  CHECK(t[2].data == std::vector<float>{1.f, -3.f});
  CHECK(t[3].stored_dtype == "int8");
  CHECK(t[3].data == std::vector<float>{-1.f, 5.f});
  CHECK(meta == std::map<std::string, std::string>{{"format", "pt"}, {"step", "7"}});
}

TEST_CASE("safetensors_bad_headers_name_the_file_and_offset", "[safetensors][errors]") {
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]})"),
             Catch::Contains("m.safetensors: byte ") && Catch::Contains("expected a JSON header"));
  CHECK_THAT(
      err(R"({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}, "x": {"dtype": "F32", "shape": [3], "data_offsets": [16, 28]}})",
          Bytes(20)),
      Catch::Contains("'x'") && Catch::Contains("holds only 20 bytes"));
  CHECK_THAT(
      err(R"({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}, "x": {"dtype": "I8", "shape": [4], "data_offsets": [12, 16]}})"),
      Catch::Contains("overlap"));
  CHECK_THAT(
      err(R"({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}, "x": {"dtype": "I8", "shape": [4], "data_offsets": [20, 24]}})"),
      Catch::Contains("unused"));
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}})"),
             Catch::Contains("spanning 12 bytes"));
  CHECK_THAT(err(R"({"w": {"dtype": "F8_E4M3", "shape": [16], "data_offsets": [0, 16]}})"),
             Catch::Contains("'F8_E4M3'"));
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}})"),
             Catch::Contains("non-negative"));
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [4], "data_offsets": [16, 0]}})"),
             Catch::Contains("begin <= end"));
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [4]}})"), Catch::Contains("'data_offsets'"));
  CHECK_THAT(err(R"({"__metadata__": {"a": 1}})"), Catch::Contains("__metadata__"));
  CHECK_THAT(err(R"([1, 2])"), Catch::Contains("byte 8: expected the JSON header to be an object"));
  CHECK_THAT(err(R"({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})", Bytes(20)),
             Catch::Contains("4 bytes are not indexed"));
  // Shapes whose byte count overflows are rejected before any arithmetic wraps.
  CHECK_THAT(
      err(R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 16]}})"),
      Catch::Contains("impossibly large"));
  Bytes huge_len = safetensors_file("{}", {});
  huge_len[7] = 0x40;
  CHECK_THAT(input_error_of([&] { parse_safetensors(huge_len, "m.safetensors"); }),
             Catch::Contains("m.safetensors: byte 0: header length"));
}

TEST_CASE("safetensors_every_truncation_is_a_clean_input_error", "[safetensors][errors]") {
  const Bytes file = safetensors_file(kHeader, data());
  CHECK(expect_every_truncation_fails(file, "m.safetensors", [](const Bytes& b) {
          parse_safetensors(b, "m.safetensors");
        }) == static_cast<int>(file.size()));
}
