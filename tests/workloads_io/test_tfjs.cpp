// TF.js: a layers-model whose weights are float32, float16, uint8- and uint16-quantized
// across two shards split mid-weight; a graph-model with base64 attributes, control
// inputs and nodes out of order; a bare weights manifest; and malformed ones.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/tfjs.h"
#include "workloads/real_models/tfjs_walk.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

const char* kLayersJson = R"({"format": "layers-model", "generatedBy": "keras v2.10.0",
 "modelTopology": {"keras_version": "2.10.0", "backend": "tensorflow", "model_config": {
  "class_name": "Functional", "config": {"name": "m", "layers": [
   {"class_name": "InputLayer", "config": {"batch_input_shape": [null, 8, 6, 2], "name": "in"}, "name": "in", "inbound_nodes": []},
   {"class_name": "Conv2D", "config": {"name": "conv", "filters": 4, "kernel_size": [3, 3], "strides": [2, 2],
     "padding": "same", "dilation_rate": [1, 1], "use_bias": true}, "name": "conv", "inbound_nodes": [[["in", 0, 0, {}]]]},
   {"class_name": "DepthwiseConv2D", "config": {"name": "dw", "kernel_size": [3, 3], "strides": [1, 1],
     "padding": "valid", "depth_multiplier": 2}, "name": "dw", "inbound_nodes": [[["conv", 0, 0, {}]]]},
   {"class_name": "GlobalAveragePooling2D", "config": {"name": "gap"}, "name": "gap", "inbound_nodes": [[["dw", 0, 0, {}]]]},
   {"class_name": "Dense", "config": {"name": "fc", "units": 3}, "name": "fc", "inbound_nodes": [[["gap", 0, 0, {}]]]}],
  "input_layers": [["in", 0, 0]], "output_layers": [["fc", 0, 0]]}}},
 "weightsManifest": [{"paths": ["group1-shard1of2.bin", "group1-shard2of2.bin"], "weights": [
   {"name": "conv/bias", "shape": [4], "dtype": "float32", "quantization": {"dtype": "float16"}},
   {"name": "conv/kernel", "shape": [3, 3, 2, 4], "dtype": "float32"},
   {"name": "dw/depthwise_kernel", "shape": [3, 3, 4, 2], "dtype": "float32",
    "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}},
   {"name": "fc/kernel", "shape": [8, 3], "dtype": "float32",
    "quantization": {"dtype": "uint16", "scale": 0.25, "min": -2.0}}]}]})";

// bias fp16 [1, -2, 0.5, 0]; kernel[i] = i / 2 - 10; dw q[i] = 3i mod 256; fc q[i] = 1000 i.
Bytes layers_weights() {
  Bytes b = {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0x00, 0x00};
  for (int i = 0; i < 72; ++i) append_f32(b, i * 0.5f - 10.f);
  for (int i = 0; i < 72; ++i) b.push_back(static_cast<std::uint8_t>(3 * i % 256));
  for (int i = 0; i < 24; ++i) {
    b.push_back(static_cast<std::uint8_t>(1000 * i));
    b.push_back(static_cast<std::uint8_t>(1000 * i >> 8));
  }
  return b;  // 8 + 288 + 72 + 48 = 416 bytes
}

void write_layers_model(const TempDir& dir, const Bytes& w, std::size_t split = 300) {
  write_file(dir.file("model.json"), std::string(kLayersJson));
  const std::size_t cut = std::min(split, w.size());
  write_file(dir.file("group1-shard1of2.bin"),
             Bytes(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(cut)));
  write_file(dir.file("group1-shard2of2.bin"),
             Bytes(w.begin() + static_cast<std::ptrdiff_t>(cut), w.end()));
}

// Base64: "SAME" U0FNRQ==, "VALID" VkFMSUQ=, "NHWC" TkhXQw==. The MatMul comes first in
// the file; the loader sorts nodes topologically.
const char* kGraphJson = R"({"format": "graph-model", "modelTopology": {"node": [
  {"name": "fc/MatMul", "op": "_FusedMatMul", "input": ["pool", "fc/kernel", "fc/bias"], "attr": {"transpose_b": {"b": false}}},
  {"name": "x", "op": "Placeholder", "attr": {"shape": {"shape": {"dim": [{"size": "-1"}, {"size": "10"}, {"size": "10"}, {"size": "3"}]}}}},
  {"name": "conv/kernel", "op": "Const", "attr": {}},
  {"name": "conv/Conv2D", "op": "Conv2D", "input": ["x", "conv/kernel", "^x"],
   "attr": {"strides": {"list": {"i": ["1", "2", "2", "1"]}}, "padding": {"s": "U0FNRQ=="},
            "dilations": {"list": {"i": ["1", "1", "1", "1"]}}, "data_format": {"s": "TkhXQw=="}}},
  {"name": "dw/depthwise", "op": "DepthwiseConv2dNative", "input": ["conv/Conv2D:0", "dw/kernel"],
   "attr": {"strides": {"list": {"i": ["1", "1", "1", "1"]}}, "padding": {"s": "VkFMSUQ="}}},
  {"name": "pool", "op": "Mean", "input": ["dw/depthwise", "axes"], "attr": {}}]},
 "weightsManifest": [{"paths": ["w.bin"], "weights": [
   {"name": "conv/kernel", "shape": [1, 1, 3, 2], "dtype": "float32"},
   {"name": "dw/kernel", "shape": [3, 3, 2, 1], "dtype": "float32"},
   {"name": "fc/kernel", "shape": [2, 5], "dtype": "float32"},
   {"name": "fc/bias", "shape": [5], "dtype": "float32"},
   {"name": "axes", "shape": [2], "dtype": "int32"}]}]})";

Bytes graph_weights() {
  Bytes b;
  for (int i = 0; i < 6 + 18 + 10 + 5; ++i) append_f32(b, static_cast<float>(i));
  for (std::uint8_t x : {1, 0, 0, 0, 2, 0, 0, 0}) b.push_back(x);
  return b;
}

}  // namespace

TEST_CASE("tfjs_layers_model_weights_decode_across_shards", "[tfjs]") {
  TempDir dir;
  write_layers_model(dir, layers_weights());
  const TfjsModel m = load_tfjs(dir.file("model.json"));
  CHECK(m.format == "layers-model");
  REQUIRE(m.weights.size() == 4);
  CHECK(m.weight("conv/bias")->data == std::vector<float>{1.f, -2.f, 0.5f, 0.f});
  CHECK(m.weight("conv/bias")->stored_dtype == "float16");
  const Tensor& k = *m.weight("conv/kernel");  // straddles the two shards
  CHECK(k.data[0] == -10.f);
  CHECK(k.data[71] == 25.5f);
  const Tensor& dw = *m.weight("dw/depthwise_kernel");
  CHECK(dw.stored_dtype == "uint8_affine");
  CHECK(dw.data[45] == -1.f + 0.5f * 135);
  const Tensor& fc = *m.weight("fc/kernel");
  CHECK(fc.stored_dtype == "uint16_affine");
  CHECK(fc.data[23] == -2.f + 0.25f * static_cast<float>(23000 % 65536));
}

TEST_CASE("tfjs_layers_model_topology_and_gemm_layers", "[tfjs]") {
  TempDir dir;
  write_layers_model(dir, layers_weights());
  const TfjsModel m = load_tfjs(dir.file("model.json"));
  REQUIRE(m.ops.size() == 5);
  const TfjsOp& conv = m.ops[1];
  CHECK(conv.type == "Conv2D");
  CHECK(conv.inputs == std::vector<std::string>{"in"});
  CHECK(conv.weights == std::vector<std::string>{"conv/kernel", "conv/bias"});  // kernel first
  CHECK((conv.kernel_h == 3 && conv.stride_h == 2 && conv.stride_w == 2 && conv.padding == "same" &&
         conv.filters == 4));
  CHECK(m.ops[2].depth_multiplier == 2);
  CHECK(m.ops[4].units == 3);
  CHECK(m.ops[0].input_shape == std::vector<std::int64_t>{-1, 8, 6, 2});

  Model model;
  add_tfjs_layers(m, 8, 6, model);
  REQUIRE(model.layers.size() == 3);
  const Layer& c = model.layers[0];  // 8x6 -> 4x3: TF pads (0, 1), which padding 1 reproduces
  CHECK((c.kind == LayerKind::Conv2d && c.in_features == 2 && c.out_features == 4 &&
         c.stride == 2 && c.padding == 1 && c.in_h == 8 && c.in_w == 6));
  const Tensor& ck = model.weights.at("conv/kernel");
  CHECK(ck.shape == std::vector<std::int64_t>{4, 2, 3, 3});
  CHECK(ck.data[((3 * 2 + 1) * 3 + 2) * 3 + 0] ==
        55 * 0.5f - 10.f);  // OIHW (3,1,2,0) = HWIO (2,0,1,3)
  const Layer& d = model.layers[1];
  CHECK((d.groups == 4 && d.in_features == 4 && d.out_features == 8 && d.in_h == 4 && d.in_w == 3 &&
         d.padding == 0));
  CHECK(model.weights.at("dw/depthwise_kernel").data[((2 * 2 + 1) * 3 + 1) * 3 + 2] ==
        -1.f + 0.5f * 135);
  const Layer& f = model.layers[2];
  CHECK((f.kind == LayerKind::Linear && f.in_features == 8 && f.out_features == 3 &&
         f.in_h * f.in_w == 1));
  CHECK(model.weights.at("fc/kernel").data[2 * 8 + 5] ==
        -2.f + 0.25f * 17000);  // [out, in] (2, 5) = [in, out] (5, 2)
}

TEST_CASE("tfjs_graph_model_nodes_attributes_and_order", "[tfjs]") {
  TempDir dir;
  write_file(dir.file("model.json"), std::string(kGraphJson));
  write_file(dir.file("w.bin"), graph_weights());
  const TfjsModel m = load_tfjs(dir.file("model.json"));
  CHECK(m.format == "graph-model");
  CHECK(m.weight("axes")->data == std::vector<float>{1.f, 2.f});
  std::vector<std::string> order;
  for (const auto& op : m.ops) order.push_back(op.name);
  const auto pos = [&](const std::string& n) {
    return std::find(order.begin(), order.end(), n) - order.begin();
  };
  CHECK(pos("x") < pos("conv/Conv2D"));
  CHECK(pos("conv/Conv2D") < pos("dw/depthwise"));
  CHECK(pos("pool") < pos("fc/MatMul"));
  const TfjsOp& conv = m.ops[static_cast<std::size_t>(pos("conv/Conv2D"))];
  CHECK(conv.inputs == std::vector<std::string>{"x"});  // control input and weights taken out
  CHECK(conv.weights == std::vector<std::string>{"conv/kernel"});
  CHECK((conv.padding == "same" && conv.stride_h == 2 && conv.stride_w == 2 && conv.kernel_h == 1));
  const TfjsOp& dw = m.ops[static_cast<std::size_t>(pos("dw/depthwise"))];
  CHECK((dw.inputs == std::vector<std::string>{"conv/Conv2D"} && dw.padding == "valid" &&
         dw.kernel_h == 3));

  Model model;
  add_tfjs_layers(m, 10, 10, model);
  REQUIRE(model.layers.size() == 3);
  CHECK(model.layers[0].name == "conv");
  CHECK((model.layers[0].stride == 2 && model.layers[0].in_h == 10));
  CHECK((model.layers[1].in_h == 5 && model.layers[1].groups == 2));
  CHECK((model.layers[2].name == "fc" && model.layers[2].in_features == 2 &&
         model.layers[2].out_features == 5));
}

// The order the loader documents: repeated passes over the file, each taking every node
// whose inputs are placed, written the plain O(n^2) way as the reference.
static std::vector<std::string> order_by_passes(
    const std::vector<std::vector<std::size_t>>& inputs) {
  const std::size_t n = inputs.size();
  std::vector<bool> placed(n, false);
  std::vector<std::string> order;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (placed[i]) continue;
      bool ready = true;
      for (auto in : inputs[i]) ready = ready && placed[in];
      if (!ready) continue;
      placed[i] = progress = true;
      order.push_back("n" + std::to_string(i));
    }
  }
  return order;
}

TEST_CASE("tfjs_graph_model_order_matches_the_file_passes_on_random_dags", "[tfjs]") {
  // Random DAGs (each node reads up to 3 earlier nodes of a random topological order, some
  // inputs repeated) stored in a random file order, and one long chain stored in reverse:
  // the worst case of the passes (one per node) that the loader avoids.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = trial == 0 ? 3000 : 1 + rng() % 60;
    std::vector<std::size_t> topo(n);  // topo[r] = file index of the r-th node
    for (std::size_t i = 0; i < n; ++i) topo[i] = trial == 0 ? n - 1 - i : i;
    if (trial != 0) std::shuffle(topo.begin(), topo.end(), rng);
    std::vector<std::vector<std::size_t>> inputs(n);
    for (std::size_t r = 1; r < n; ++r) {
      const std::size_t fan = trial == 0 ? 1 : rng() % 4;
      for (std::size_t f = 0; f < fan; ++f)
        inputs[topo[r]].push_back(topo[trial == 0 ? r - 1 : rng() % r]);
    }
    std::string json =
        R"({"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [)";
    for (std::size_t i = 0; i < n; ++i) {
      json += std::string(i ? "," : "") + R"({"name": "n)" + std::to_string(i) +
              R"(", "op": "Identity", "input": [)";
      for (std::size_t k = 0; k < inputs[i].size(); ++k)
        json += std::string(k ? "," : "") + "\"n" + std::to_string(inputs[i][k]) + ":0\"";
      json += "]}";
    }
    json += "]}}";
    TempDir dir;
    write_file(dir.file("model.json"), json);
    const TfjsModel m = load_tfjs(dir.file("model.json"));
    std::vector<std::string> order;
    for (const auto& op : m.ops) order.push_back(op.name);
    INFO("trial " << trial << ", " << n << " nodes");
    CHECK(order == order_by_passes(inputs));
  }
}

TEST_CASE("tfjs_graph_model_cycle_is_an_input_error", "[tfjs][errors]") {
  TempDir dir;
  write_file(dir.file("model.json"),
             R"({"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [
  {"name": "a", "op": "Identity", "input": ["c"]}, {"name": "b", "op": "Identity", "input": ["a"]},
  {"name": "c", "op": "Identity", "input": ["b"]}, {"name": "d", "op": "Placeholder"}]}})");
  CHECK_THROWS_WITH(load_tfjs(dir.file("model.json")), Catch::Contains("cycle"));
}

TEST_CASE("tfjs_bare_weights_manifest", "[tfjs]") {
  TempDir dir;
  write_file(
      dir.file("m-weights_manifest.json"),
      std::string(
          R"([{"paths": ["m.bin"], "weights": [{"name": "a", "shape": [2], "dtype": "float32"}]}])"));
  write_file(dir.file("m.bin"), Bytes{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0});
  const TfjsModel m = load_tfjs(dir.file("m-weights_manifest.json"));
  CHECK(m.format == "weights-manifest");
  CHECK(m.weight("a")->data == std::vector<float>{1.f, -2.f});
}

TEST_CASE("tfjs_malformed_models_name_the_file_and_offset", "[tfjs][errors]") {
  TempDir dir;
  const Bytes w = layers_weights();
  write_layers_model(dir, Bytes(w.begin(), w.end() - 10));
  CHECK_THAT(
      input_error_of([&] { load_tfjs(dir.file("model.json")); }),
      Catch::Contains("group1-shard2of2.bin: byte 68: expected 48 bytes for weight 'fc/kernel'"));
  Bytes more = w;
  more.push_back(0);
  write_layers_model(dir, more);
  CHECK_THAT(input_error_of([&] { load_tfjs(dir.file("model.json")); }),
             Catch::Contains("1 bytes are left over"));

  const auto json_error = [&](const std::string& text) {
    write_layers_model(dir, w);
    write_file(dir.file("model.json"), text);
    return input_error_of([&] { load_tfjs(dir.file("model.json")); });
  };
  CHECK_THAT(json_error(R"({"format": "layers-model", )"),
             Catch::Contains("model.json: byte ") && Catch::Contains("expected JSON"));
  CHECK_THAT(json_error(R"({"format": "layers-model"})"), Catch::Contains("weightsManifest"));
  std::string q = kLayersJson;
  q.replace(q.find("\"uint16\""), 8, "\"int4\"");
  CHECK_THAT(
      json_error(q),
      Catch::Contains(
          "weightsManifest[0].weights[3].quantization.dtype: expected uint8, uint16 or float16"));
  std::string shape = kLayersJson;
  shape.replace(shape.find("[8, 3]"), 6, "[8, -3]");
  CHECK_THAT(json_error(shape), Catch::Contains("weights[3].shape"));
  std::string shard = kLayersJson;
  shard.replace(shard.find("group1-shard2of2.bin"), 20, "missing-shard.bin");
  CHECK_THAT(json_error(shard), Catch::Contains("missing-shard.bin: cannot open"));
}

TEST_CASE("tfjs_every_truncation_is_a_clean_input_error", "[tfjs][errors]") {
  TempDir dir;
  const Bytes w = layers_weights();
  CHECK(expect_every_truncation_fails(w, "group1-shard", [&](const Bytes& prefix) {
          write_layers_model(dir, prefix);
          load_tfjs(dir.file("model.json"));
        }) == static_cast<int>(w.size()));
  write_layers_model(dir, w);
  const Bytes text = to_bytes(kLayersJson);
  CHECK(expect_every_truncation_fails(text, "model.json", [&](const Bytes& prefix) {
          parse_tfjs(std::string(prefix.begin(), prefix.end()), dir.file("model.json"));
        }) == static_cast<int>(text.size()));
}
