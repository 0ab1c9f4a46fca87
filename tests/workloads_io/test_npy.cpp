// .npy: every dtype round-trips through the writer and reader; headers as numpy writes
// them (v1.0 and v2.0) read; malformed and truncated files give InputError with offsets.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/element_types.h"
#include "workloads/loaders/load_weights.h"
#include "workloads/loaders/npy.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

// A .npy file exactly as numpy 1.x writes it (header padded to a 64-byte boundary).
Bytes numpy_file(const std::string& dict, const Bytes& data, int major = 1) {
  std::string header = dict;
  const std::size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64) header += ' ';
  header += '\n';
  Bytes b = to_bytes("\x93NUMPY");
  b.push_back(static_cast<std::uint8_t>(major));
  b.push_back(0);
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    b.push_back(static_cast<std::uint8_t>(header.size() >> (8 * i)));
  b.insert(b.end(), header.begin(), header.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

Bytes floats(std::initializer_list<float> v) {
  Bytes b;
  for (float x : v) append_f32(b, x);
  return b;
}

}  // namespace

TEST_CASE("npy_reads_numpy_v1_and_v2_headers", "[npy]") {
  const Bytes data = floats({1.5f, -2.f, 3.25f, 0.f, 7.f, -0.125f});
  for (int major : {1, 2}) {
    const Bytes file =
        numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data, major);
    const Tensor t = parse_npy(file, "a.npy", "a");
    CHECK(t.shape == std::vector<std::int64_t>{2, 3});
    CHECK(t.stored_dtype == "float32");
    CHECK(t.data == std::vector<float>{1.5f, -2.f, 3.25f, 0.f, 7.f, -0.125f});
  }
  // numpy writes int8/uint8 as |i1 and |u1, 1-D shapes as (n,), scalars as ().
  const Tensor i8 = parse_npy(
      numpy_file("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", {0x80, 0x7f, 0xff}),
      "b.npy", "b");
  CHECK(i8.data == std::vector<float>{-128.f, 127.f, -1.f});
  const Tensor scalar =
      parse_npy(numpy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (), }",
                           {0xfe, 0xff, 0xff, 0xff}),
                "c.npy", "c");
  CHECK(scalar.shape.empty());
  CHECK(scalar.data == std::vector<float>{-2.f});
}

TEST_CASE("npy_every_dtype_round_trips_through_a_file", "[npy]") {
  TempDir dir;
  Tensor t{"x", {2, 2, 3}, {}, "float32"};
  for (int i = 0; i < 12; ++i)
    t.data.push_back(static_cast<float>(i * 7 % 11) -
                     5.f);  // small integers, exact in every dtype but u1
  for (const char* dtype : {"<f4", "<f2", "<f8", "|i1", "<i4"}) {
    INFO(dtype);
    const std::string path = dir.file("x.npy");
    save_npy(path, t, dtype);
    const auto back = load_npy(path);
    REQUIRE(back.size() == 1);
    CHECK(back[0].name == "x");
    CHECK(back[0].shape == t.shape);
    CHECK(back[0].data == t.data);
  }
  Tensor u{"u", {4}, {0.f, 1.f, 200.f, 255.f}, "float32"};
  save_npy(dir.file("u.npy"), u, "|u1");
  CHECK(load_npy(dir.file("u.npy"))[0].data == u.data);
  // Non-integers survive <f4 bit-exactly; the data starts on a 64-byte boundary.
  Tensor f{"f", {3}, {0.1f, -1e-30f, 3.4e38f}, "float32"};
  const Bytes enc = encode_npy(f);
  CHECK((enc.size() - 12) % 64 == 0);
  CHECK(parse_npy(enc, "f.npy", "f").data == f.data);
}

TEST_CASE("npy_writer_rejects_values_an_integer_dtype_cannot_hold", "[npy]") {
  const Tensor t{"t", {2}, {1.f, 300.f}, "float32"};
  CHECK_THROWS_AS(encode_npy(t, "|i1"), stcsim::InputError);
  CHECK_THROWS_AS(encode_npy(t, "<u2"), stcsim::InputError);
}

TEST_CASE("npy_half_precision_conversion_is_exact_both_ways", "[npy]") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(65504.f) == 0x7bff);
  CHECK(float_to_half(65520.f) == 0x7c00);                      // rounds up to inf
  CHECK(half_to_float(0x0001) == std::ldexp(1.f, -24));         // smallest subnormal
  CHECK(float_to_half(1.0f + std::ldexp(1.f, -11)) == 0x3c00);  // tie -> even
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    if (float_to_half(f) != h) FAIL("half 0x" << std::hex << h << " does not round-trip");
  }
}

TEST_CASE("npy_malformed_headers_name_the_file_and_offset", "[npy][errors]") {
  const Bytes data = floats({1.f, 2.f});
  const auto err = [&](const std::string& dict) {
    return input_error_of([&] { parse_npy(numpy_file(dict, data), "bad.npy", "bad"); });
  };
  std::string m = err("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }");
  CHECK_THAT(m, Catch::Contains("bad.npy: byte 10") && Catch::Contains("fortran_order"));
  CHECK_THAT(err("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }"),
             Catch::Contains("big-endian"));
  CHECK_THAT(err("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }"),
             Catch::Contains("'<c8' is not supported"));
  CHECK_THAT(err("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"),
             Catch::Contains("expected 12 bytes of data"));
  CHECK_THAT(err("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }"),
             Catch::Contains("byte 63: expected ',' or ')'"));
  CHECK_THAT(err("{'descr': '<f4', 'shape': (2,), }"), Catch::Contains("needs the keys"));
  CHECK_THAT(err("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}"),
             Catch::Contains("unexpected header key 'x'"));
  Bytes wrong_magic = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data);
  wrong_magic[1] = 'X';
  CHECK_THAT(input_error_of([&] { parse_npy(wrong_magic, "m.npy", "m"); }),
             Catch::Contains("m.npy: byte 0: expected the magic"));
  Bytes v9 = numpy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data);
  v9[6] = 9;
  CHECK_THAT(input_error_of([&] { parse_npy(v9, "v.npy", "v"); }),
             Catch::Contains("byte 6: unsupported .npy format version 9"));
  CHECK_THAT(input_error_of([] { load_npy("/nonexistent/x.npy"); }),
             Catch::Contains("cannot open"));
}

TEST_CASE("npy_every_truncation_is_a_clean_input_error", "[npy][errors]") {
  const Bytes file = numpy_file("{'descr': '<f2', 'fortran_order': False, 'shape': (3, 2), }",
                                Bytes{0, 0x3c, 0, 0xc0, 1, 0, 0xff, 0x7b, 0, 0, 0, 0x80});
  CHECK(parse_npy(file, "t.npy", "t").data.size() == 6);
  CHECK(expect_every_truncation_fails(file, "t.npy", [](const Bytes& b) {
          parse_npy(b, "t.npy", "t");
        }) == static_cast<int>(file.size()));
  Bytes longer = file;
  longer.push_back(0);
  CHECK_THAT(input_error_of([&] { parse_npy(longer, "t.npy", "t"); }),
             Catch::Contains("the file has 13"));
}

// A folder of .npy files (one tensor each, as `numpy.save` per state-dict entry writes
// them) loads in the network's order, named by path inside the folder (issue 16).
TEST_CASE("npy_folder_loads_in_natural_order", "[npy]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("head"));
  auto tensor = [](const std::string& name, std::vector<std::int64_t> shape) {
    Tensor t;
    t.name = name;
    t.shape = shape;
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    t.data.assign(std::size_t(n), 0.5f);
    return t;
  };
  save_npy(dir.file("fc10.weight.npy"), tensor("x", {8, 16}));
  save_npy(dir.file("fc2.weight.npy"), tensor("x", {16, 32}));
  save_npy(dir.file("fc1.weight.npy"), tensor("x", {32, 4}));
  save_npy(dir.file("fc1.bias.npy"), tensor("x", {32}));
  save_npy(dir.file("head/out.npy"), tensor("x", {2, 8}));
  write_file(dir.file("README.txt"), std::string("not a tensor"));
  const auto ts = load_weights(dir.path());
  std::vector<std::string> names;
  for (const auto& t : ts) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"fc1.bias", "fc1.weight", "fc2.weight", "fc10.weight",
                                          "head/out"});
  CHECK(ts[2].shape == std::vector<std::int64_t>{16, 32});
  CHECK(ts[2].data.at(0) == 0.5f);
  // A malformed file in the folder is named; an empty folder says what it wanted.
  write_file(dir.file("fc3.weight.npy"), std::string("junk"));
  CHECK_THROWS_WITH(load_weights(dir.path()), Catch::Contains("fc3.weight.npy"));
  TempDir empty;
  CHECK_THROWS_WITH(load_weights(empty.path()),
                    Catch::Contains("a weight folder must hold .npy files"));
}
