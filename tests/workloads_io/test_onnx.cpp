// ONNX from hand-built protobuf bytes: initializers (raw_data, int64_data, double_data,
// fp16), a Constant node's value tensor, node attributes, graph input shapes; malformed
// varints, lengths, wire types and tensors; every truncation; random byte flips.
#include <catch2/catch.hpp>
#include <cstring>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/onnx.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

// onnx.proto field numbers used below: ModelProto{1 ir_version, 2 producer_name, 7 graph},
// GraphProto{1 node, 5 initializer, 11 input}, NodeProto{1 input, 2 output, 3 name,
// 4 op_type, 5 attribute}, AttributeProto{1 name, 2 f, 3 i, 5 t, 8 ints, 20 type},
// TensorProto{1 dims, 2 data_type, 4 float_data, 7 int64_data, 8 name, 9 raw_data,
// 10 double_data, 14 data_location}.
Pb attr_ints(const std::string& name, const std::vector<std::int64_t>& v) {
  return Pb().string_field(1, name).varint_field(20, 7).packed_varints(8, v);
}

Pb graph() {
  Pb w;  // Constant value: float_data, packed
  w.packed_varints(1, {2, 3, 1, 1})
      .varint_field(2, 1)
      .packed_floats(4, {1, -2, 3, -4, 5.5f, 0.25f});
  Pb constant;
  constant.string_field(2, "W")
      .string_field(4, "Constant")
      .message(5, Pb().string_field(1, "value").varint_field(20, 4).message(5, w));
  Pb conv;
  conv.string_field(1, "x")
      .string_field(1, "W")
      .string_field(2, "y")
      .string_field(3, "conv0")
      .string_field(4, "Conv")
      .varint_field(99, 7)  // an unknown field is skipped
      .message(5, attr_ints("strides", {1, 2}))
      .message(5, attr_ints("pads", {0, 1, 0, 1}))
      .message(5, Pb().string_field(1, "group").varint_field(20, 2).varint_field(3, 1))
      .message(5, Pb().string_field(1, "alpha").varint_field(20, 1).float_field(2, 0.5f));
  Pb b;  // fp16 raw_data, dims written unpacked
  b.string_field(8, "B").varint_field(1, 3).varint_field(2, 10).bytes_field(
      9, {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38});
  Pb shape;
  shape.string_field(8, "shape")
      .packed_varints(1, {2})
      .varint_field(2, 7)
      .packed_varints(7, {-1, 40});
  Bytes dbl;
  for (double d : {0.5, -8.0}) {
    std::uint64_t u;
    std::memcpy(&u, &d, 8);
    for (int i = 0; i < 8; ++i) dbl.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
  }
  Pb d;
  d.string_field(8, "D").packed_varints(1, {2}).varint_field(2, 11).bytes_field(10, dbl);
  const auto dim_value = [](std::int64_t v) {
    return Pb().varint_field(1, static_cast<std::uint64_t>(v));
  };
  const auto dim_param = [](const std::string& p) { return Pb().string_field(2, p); };
  Pb in_shape;
  in_shape.message(1, dim_param("N"))
      .message(1, dim_value(3))
      .message(1, dim_value(48))
      .message(1, dim_param("W"));
  Pb input;
  input.string_field(1, "x").message(2,
                                     Pb().message(1, Pb().varint_field(1, 1).message(2, in_shape)));
  Pb g;
  g.message(1, constant)
      .message(1, conv)
      .string_field(2, "g")
      .message(5, b)
      .message(5, shape)
      .message(5, d)
      .message(11, input);
  return g;
}

Bytes model_bytes() {
  return Pb().varint_field(1, 8).string_field(2, "test").message(7, graph()).b;
}

std::string err(const Bytes& b) {
  return input_error_of([&] { parse_onnx(b, "m.onnx"); });
}

Bytes model_with_tensor(const Pb& tensor) {
  return Pb().varint_field(1, 8).message(7, Pb().message(5, tensor)).b;
}

}  // namespace

TEST_CASE("onnx_initializers_constants_nodes_and_inputs", "[onnx]") {
  TempDir dir;
  write_file(dir.file("m.onnx"), model_bytes());
  const OnnxModel m = load_onnx(dir.file("m.onnx"));
  CHECK(m.ir_version == 8);
  CHECK(m.producer == "test");
  REQUIRE(m.tensors.size() == 4);
  const Tensor* w = m.tensor("W");  // the Constant node's value, named by its output
  REQUIRE(w);
  CHECK(w->shape == std::vector<std::int64_t>{2, 3, 1, 1});
  CHECK(w->data == std::vector<float>{1, -2, 3, -4, 5.5f, 0.25f});
  CHECK(m.tensor("B")->data == std::vector<float>{1.f, -2.f, 0.5f});
  CHECK(m.tensor("B")->stored_dtype == "float16");
  CHECK(m.tensor("shape")->data == std::vector<float>{-1.f, 40.f});
  CHECK(m.tensor("D")->data == std::vector<float>{0.5f, -8.f});
  CHECK(m.tensor("nope") == nullptr);
  REQUIRE(m.nodes.size() == 2);
  const OnnxNode& conv = m.nodes[1];
  CHECK((conv.op_type == "Conv" && conv.name == "conv0"));
  CHECK(conv.inputs == std::vector<std::string>{"x", "W"});
  CHECK(conv.outputs == std::vector<std::string>{"y"});
  CHECK(conv.ints_attr("strides") == std::vector<std::int64_t>{1, 2});
  CHECK(conv.ints_attr("pads") == std::vector<std::int64_t>{0, 1, 0, 1});
  CHECK(conv.int_attr("group", 0) == 1);
  CHECK(conv.attribute("alpha")->f == 0.5f);
  CHECK(conv.ints_attr("dilations", {1, 1}) == std::vector<std::int64_t>{1, 1});
  REQUIRE(m.inputs.size() == 1);
  CHECK(m.inputs[0].name == "x");
  CHECK(m.inputs[0].dims == std::vector<std::int64_t>{-1, 3, 48, -1});
  CHECK(load_onnx_weights(dir.file("m.onnx")).size() == 4);
}

TEST_CASE("onnx_malformed_wire_data_names_the_offset", "[onnx][errors]") {
  Bytes overlong = {0x08};  // ir_version, then a varint of 11 continuation bytes
  overlong.insert(overlong.end(), 11, 0xff);
  CHECK_THAT(err(overlong), Catch::Contains("m.onnx: byte 1: malformed varint"));
  Bytes over64 = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  CHECK_THAT(err(over64), Catch::Contains("byte 1: malformed varint (field value): over 64 bits"));
  CHECK_THAT(err({0x08, 0x80}),
             Catch::Contains("byte 1: malformed varint") && Catch::Contains("past the end"));
  CHECK_THAT(err({0x08, 0x08, 0x3a, 100, 1, 2, 3}),
             Catch::Contains("byte 3: field 7: length 100 runs past the end"));
  CHECK_THAT(err({0x0b, 0x00}), Catch::Contains("byte 0: field 1: wire type 3"));
  CHECK_THAT(err({0x00, 0x00}), Catch::Contains("byte 0: expected a field key"));
  CHECK_THAT(err({0x08, 0x08}), Catch::Contains("with a graph"));
  CHECK_THAT(err(Pb().varint_field(1, 8).varint_field(7, 3).b),
             Catch::Contains("ModelProto.graph (7): expected wire type 2"));
  // Inside the graph, offsets are still file offsets: the node's op_type as a varint.
  const Bytes bad_node = Pb().message(7, Pb().message(1, Pb().varint_field(4, 1))).b;
  CHECK_THAT(err(bad_node),
             Catch::Contains("byte 4: field NodeProto.op_type (4): expected wire type 2"));
}

TEST_CASE("onnx_malformed_tensors", "[onnx][errors]") {
  CHECK_THAT(err(model_with_tensor(
                 Pb().string_field(8, "t").packed_varints(1, {4}).varint_field(2, 1).bytes_field(
                     9, Bytes(12)))),
             Catch::Contains("tensor 't' [4] float32: expected 16 bytes of raw_data, got 12"));
  CHECK_THAT(err(model_with_tensor(
                 Pb().string_field(8, "t").packed_varints(1, {4}).varint_field(2, 1).packed_floats(
                     4, {1, 2}))),
             Catch::Contains("expected 4 values, float_data holds 2"));
  CHECK_THAT(err(model_with_tensor(Pb().string_field(8, "s").varint_field(2, 8))),
             Catch::Contains("tensor 's': data_type 8 is not supported"));
  CHECK_THAT(
      err(model_with_tensor(Pb().string_field(8, "e").varint_field(2, 1).varint_field(14, 1))),
      Catch::Contains("external file"));
  CHECK_THAT(err(model_with_tensor(Pb().string_field(8, "h")
                                       .packed_varints(1, {1 << 30, 1 << 30, 1 << 30})
                                       .varint_field(2, 1))),
             Catch::Contains("impossibly large"));
}

TEST_CASE("onnx_every_truncation_is_a_clean_input_error", "[onnx][errors]") {
  const Bytes b = model_bytes();
  CHECK(expect_every_truncation_fails(b, "m.onnx", [](const Bytes& p) {
          parse_onnx(p, "m.onnx");
        }) == static_cast<int>(b.size()));
}

TEST_CASE("onnx_random_byte_flips_parse_or_fail_cleanly", "[onnx][errors]") {
  const Bytes b = model_bytes();
  std::uint32_t state = 12345;  // xorshift: deterministic
  const auto next = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  int errors = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes f = b;
    for (int k = 0; k < 1 + trial % 3; ++k)
      f[next() % f.size()] ^= static_cast<std::uint8_t>(1u << (next() % 8));
    try {
      parse_onnx(f, "m.onnx");
    } catch (const stcsim::InputError&) {
      ++errors;
    }
  }
  CHECK(errors > 0);  // anything else thrown (or a crash) fails the test
}
