// The ONNX graph walker (workloads/real_models/onnx_graph.h) on a hand-built graph: a Conv
// with padding, a global pool and Flatten, a Gemm with transB and a MatMul, their weight
// layouts and token counts, and a note for the dynamic input size and for every tensor
// not lowered.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/real_models/onnx_graph.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

// onnx.proto field numbers: see test_onnx.cpp.
Pb tensor(const std::string& name, const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i);
  return Pb().string_field(8, name).packed_varints(1, dims).varint_field(2, 1).packed_floats(4, v);
}

Pb node(const std::string& op, const std::string& name, const std::vector<std::string>& in,
        const std::string& out) {
  Pb n;
  for (const auto& i : in) n.string_field(1, i);
  return n.string_field(2, out).string_field(3, name).string_field(4, op);
}

Pb ints(const std::string& name, const std::vector<std::int64_t>& v) {
  return Pb().string_field(1, name).varint_field(20, 7).packed_varints(8, v);
}

Pb int_attr(const std::string& name, std::int64_t v) {
  return Pb().string_field(1, name).varint_field(20, 2).varint_field(3, std::uint64_t(v));
}

Bytes small_net(bool with_input = true) {
  Pb g;
  g.message(1, node("Conv", "conv0", {"x", "conv0.weight"}, "c")
                   .message(5, ints("pads", {1, 1, 1, 1}))
                   .message(5, ints("strides", {1, 1})))
      .message(1, node("Relu", "relu0", {"c"}, "r"))
      .message(1, node("GlobalAveragePool", "gap", {"r"}, "p"))
      .message(1, node("Flatten", "flat", {"p"}, "f"))
      .message(
          1,
          node("Gemm", "fc", {"f", "fc.weight", "fc.bias"}, "g").message(5, int_attr("transB", 1)))
      .message(1, node("MatMul", "proj", {"g", "proj_w"}, "y"))
      .message(1, node("MatMul", "scores", {"y", "g"}, "s"))  // two activations
      .message(5, tensor("conv0.weight", {4, 3, 3, 3}))
      .message(5, tensor("fc.weight", {10, 4}))
      .message(5, tensor("fc.bias", {10}))
      .message(5, tensor("proj_w", {10, 6}))
      .message(5, tensor("unused", {5, 5}));
  if (with_input) {
    Pb shape;
    shape.message(1, Pb().string_field(2, "N"))
        .message(1, Pb().varint_field(1, 3))
        .message(1, Pb().varint_field(1, 8))
        .message(1, Pb().string_field(2, "W"));
    g.message(11, Pb().string_field(1, "x").message(
                      2, Pb().message(1, Pb().varint_field(1, 1).message(2, shape))));
  }
  return Pb().varint_field(1, 8).message(7, g).b;
}

}  // namespace

TEST_CASE("onnx_graph_lowers_conv_gemm_and_matmul_by_use", "[onnx]") {
  TempDir dir;
  write_file(dir.file("net.onnx"), small_net());
  const Model m = lower_onnx_graph(dir.file("net.onnx"));
  REQUIRE(m.layers.size() == 3);
  const Layer& conv = m.layers[0];
  CHECK(conv.name == "conv0");  // ".weight" dropped
  CHECK(conv.kind == LayerKind::Conv2d);
  CHECK((conv.in_features == 3 && conv.out_features == 4 && conv.kernel_h == 3));
  CHECK((conv.in_h == 8 && conv.in_w == 224));  // the dynamic width at 224
  CHECK((conv.padding == 1 && conv.stride == 1));
  // Gemm with transB: its B is already [out, in]; after the pool, one token per sample.
  const Layer& fc = m.layers[1];
  CHECK((fc.kind == LayerKind::Linear && fc.in_features == 4 && fc.out_features == 10));
  CHECK(fc.in_h * fc.in_w == 1);
  CHECK(m.weights.at("fc.weight").shape == std::vector<std::int64_t>{10, 4});
  CHECK(m.weights.at("fc.weight").data[1] == 1.0f);  // unchanged
  // MatMul's W is [in, out]: transposed to [out, in].
  const Layer& proj = m.layers[2];
  CHECK((proj.in_features == 10 && proj.out_features == 6));
  const Tensor& pw = m.weights.at("proj_w");
  CHECK(pw.shape == std::vector<std::int64_t>{6, 10});
  CHECK(pw.data[1] == 6.0f);  // [0][1] of [6, 10] is [1][0] of the stored [10, 6]
  // Notes: the assumed input size, the product of two activations, and the 2-D tensor
  // nothing lowered (not the bias).
  REQUIRE(m.notes.size() == 3);
  CHECK(m.notes[0].find("dynamic height or width: lowered at 8x224") != std::string::npos);
  CHECK(m.notes[1].find("MatMul 'scores' not lowered: both operands are activations") !=
        std::string::npos);
  CHECK(m.notes[2].find("tensor 'unused' [5x5] not lowered: no node reads it") !=
        std::string::npos);
  // The width given by the caller: no note.
  OnnxGraphOptions opt;
  opt.dynamic_w = 32;
  const Model sized = lower_onnx_graph(dir.file("net.onnx"), opt);
  CHECK(sized.layers[0].in_w == 32);
  CHECK(sized.notes.size() == 2);
}

TEST_CASE("onnx_graph_without_an_activation_input_is_an_input_error", "[onnx][errors]") {
  TempDir dir;
  write_file(dir.file("net.onnx"), small_net(false));
  const std::string e = input_error_of([&] { lower_onnx_graph(dir.file("net.onnx")); });
  CHECK(e.find("net.onnx") != std::string::npos);
  CHECK(e.find("no input") != std::string::npos);
}
