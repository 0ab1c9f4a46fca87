// SCALE-Sim topology CSVs (workloads/loaders/scalesim_topology.h): both formats lowered to
// the GEMMs worked out by hand, the examples/ files, and every malformed input an error
// naming the file, the line and what was expected.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/loaders/scalesim_topology.h"
#include "workloads/lowering/lowering.h"

using namespace stcsim;
using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

const char* const kConvHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
    "Filter, Strides,\n";

Model load_text(const TempDir& dir, const std::string& text, const std::string& name = "t.csv") {
  write_file(dir.file(name), text);
  return load_scalesim_topology(dir.file(name));
}

void expect_error(const std::string& text, const std::vector<std::string>& parts) {
  TempDir dir;
  write_file(dir.file("bad.csv"), text);
  try {
    load_scalesim_topology(dir.file("bad.csv"));
    FAIL("accepted:\n" << text);
  } catch (const InputError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK_THAT(msg, Catch::Contains("bad.csv"));
    for (const auto& p : parts) CHECK_THAT(msg, Catch::Contains(p));
  }
}

}  // namespace

TEST_CASE("scalesim_conv_rows_lower_to_implicit_gemms", "[scalesim]") {
  TempDir dir;
  // SCALE-Sim's trailing commas, CRLF line ends, a blank line, a depthwise (DP) row and a
  // row with a stride per axis.
  const Model m = load_text(dir, std::string(kConvHeader) +
                                     "Conv1, 230, 230, 7, 7, 3, 64, 2,\r\n\r\n"
                                     "DP_Conv2, 114, 114, 3, 3, 32, 1, 1,\r\n"
                                     "PW3, 56, 56, 1, 1, 64, 128, 1, 1,\r\n");
  CHECK(m.name == "t");
  CHECK_FALSE(m.real_weights);
  REQUIRE(m.layers.size() == 3);
  LoweringOptions o;
  o.batch = 2;
  const auto g = lower_model(m, o);
  // floor((230 - 7) / 2) + 1 = 112 outputs a side, no padding; K = 3 x 7 x 7.
  CHECK(g[0].m == 2 * 112 * 112);
  CHECK(g[0].n == 64);
  CHECK(g[0].k == 147);
  CHECK(g[0].conv.padding == 0);
  // Depthwise: each of the 32 channels its own GEMM of N = 1 filter, K = 9.
  CHECK(g[1].batch == 32);
  CHECK(g[1].n == 1);
  CHECK(g[1].k == 9);
  CHECK(g[1].m == 2 * 112 * 112);
  CHECK(g[2].m == 2 * 56 * 56);
  CHECK(g[2].n == 128);
  CHECK(g[2].k == 64);
}

TEST_CASE("scalesim_gemm_rows_are_linear_layers_over_m_rows", "[scalesim]") {
  TempDir dir;
  const Model m = load_text(dir, "Layer, M, N, K,\nfc1, 512, 3072, 768,\nfc2, 512, 768, 3072\n");
  REQUIRE(m.layers.size() == 2);
  LoweringOptions o;
  o.batch = 3;
  const auto g = lower_model(m, o);
  CHECK(g[0].m == 3 * 512);
  CHECK(g[0].n == 3072);
  CHECK(g[0].k == 768);
  CHECK(g[1].n == 768);
  CHECK(g[1].k == 3072);
}

TEST_CASE("scalesim_examples_lower", "[scalesim]") {
  const Model r = load_scalesim_topology(STCSIM_SOURCE_DIR "/examples/scalesim/resnet18.csv");
  const auto g = lower_model(r, LoweringOptions{});
  REQUIRE(g.size() == 21);  // conv1, 16 3x3, 3 downsamples, fc
  double macs = 0;
  for (const auto& x : g) macs += x.flops() / 2;
  // torchvision ResNet-18 at 224x224: 1,813,561,344 conv MACs + 512,000 in the fc.
  CHECK(macs == 1813561344.0 + 512000.0);
  CHECK(g.back().m == 1);
  CHECK(g.back().n == 1000);
  const Model mlp =
      load_scalesim_topology(STCSIM_SOURCE_DIR "/examples/scalesim/transformer_mlp_gemm.csv");
  CHECK(mlp.layers.size() == 6);
}

TEST_CASE("scalesim_malformed_topologies_name_the_line", "[scalesim]") {
  expect_error("", {"empty; expected a SCALE-Sim topology CSV"});
  expect_error("name, a, b, c\nx, 1, 2, 3,\n",
               {"bad.csv:1:", "expected a SCALE-Sim topology header"});
  expect_error(std::string(kConvHeader), {"a header but no layer rows"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, 4,\n",
               {"bad.csv:2:", "expected 8 or 9 fields", "got 6"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, 4, 16, 1, 1, 7,\n", {"got 10"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, x, 4, 16, 1,\n",
               {"bad.csv:2:", "column 5 of layer 'c1'", "whole number from 1", "'x'"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, 0, 16, 1,\n", {"column 6", "'0'"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, -4, 16, 1,\n", {"column 6", "'-4'"});
  expect_error(std::string(kConvHeader) + "c1, 99999999999, 8, 3, 3, 4, 16, 1,\n", {"column 2"});
  expect_error(std::string(kConvHeader) + "c1, 2, 8, 3, 3, 4, 16, 1,\n",
               {"bad.csv:2:", "3x3 filter larger than its 2x8 IFMAP", "padded IFMAP"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, 4, 16, 1, 2,\n",
               {"strides 1 and 2 per axis"});
  expect_error(std::string(kConvHeader) + ", 8, 8, 3, 3, 4, 16, 1,\n",
               {"column 1 (layer name) is empty"});
  expect_error(std::string(kConvHeader) + "c1, 8, 8, 3, 3, 4, 16, 1,\nc1, 8, 8, 3, 3, 4, 16, 1,\n",
               {"bad.csv:3:", "'c1' repeats"});
  expect_error("Layer, M, N, K,\nfc, 4, 4,\n", {"bad.csv:2:", "expected 4 fields"});
  expect_error("Layer, M, N, K,\nfc, 4, 4, 4.5,\n", {"column 4", "'4.5'"});
  expect_error(std::string("Layer, M, N, K,\nfc\xff, 4, 4, 4,\n"), {"not UTF-8"});
  TempDir dir;
  CHECK_THROWS_WITH(load_scalesim_topology(dir.path()), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(load_scalesim_topology(dir.file("none.csv")), Catch::Contains("cannot open"));
}
