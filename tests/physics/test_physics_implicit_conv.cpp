// Timing physics of convolutions on the tensor-core GEMM kernels (implicit GEMM,
// models/kernels/conv_activation.h, docs/conv.md): DRAM sees the NHWC input about once,
// not its unrolled windows; a 1x1 stride-1 convolution runs exactly as its plain GEMM;
// more images never take less time.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/real_model_skip.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

struct Conv {
  int images, h, w, cin, cout, window, stride, pad;
  int out_h() const { return (h + 2 * pad - window) / stride + 1; }
  int out_w() const { return (w + 2 * pad - window) / stride + 1; }
  long long m() const { return 1LL * images * out_h() * out_w(); }
  long long k() const { return 1LL * cin * window * window; }
};

// A trace of one fp16 convolution as its GEMM, with its geometry (conv=) or without it.
std::string conv_trace(const Conv& c, const std::string& sparsity, bool with_conv = true) {
  const std::string path = temp_dir("implicit_conv") + "/conv.trace";
  std::ofstream f(path);
  f << "stcsim-trace 1\nmodel conv\nsynthetic true\ndtype fp16\nops 1\n"
    << "op conv m=" << c.m() << " n=" << c.cout << " k=" << c.k()
    << " batch=1 sparsity=" << sparsity;
  if (with_conv)
    f << " conv=" << c.h << "x" << c.w << ":" << c.window << "x" << c.window << ":s" << c.stride
      << ":p" << c.pad << ":d1";
  f << "\n";
  return path;
}

nlohmann::json conv_op(const std::string& arch, const Conv& c, const std::string& sparsity,
                       bool with_conv = true) {
  return run_stats("--arch " + arch + " --no-dense-baseline --trace " +
                   conv_trace(c, sparsity, with_conv))["ops"][0];
}

}  // namespace

TEST_CASE("physics_conv3x3_dram_reads_the_input_once_not_its_windows", "[physics][conv]") {
  const Conv c{8, 28, 28, 64, 128, 3, 1, 1};
  const double input = 2.0 * c.images * c.h * c.w * c.cin;
  const double im2col = 2.0 * double(c.m()) * double(c.k());
  for (const std::string arch : {"a100", "h100"})
    for (const std::string sparsity : {"dense", "2:4"}) {
      const auto op = conv_op(arch, c, sparsity);
      // The weight: dense, or half its values (1 B per dense element) plus 2 bits of
      // metadata per kept value (0.125 B per dense element).
      const double weight = sparsity == "dense" ? 2.0 * c.cout * double(c.k())
                                                : (1.0 + 0.125) * c.cout * double(c.k());
      const double reads = op["dram_read_bytes"];
      INFO(arch << " " << sparsity << ": DRAM reads " << reads << ", input " << input << ", weight "
                << weight << ", im2col " << im2col);
      // Every input pixel is some window's tap, and every weight is read.
      CHECK(reads >= input + weight);
      // Neighbouring windows share lines in the L2: the 9x unrolled operand never reaches
      // DRAM.
      CHECK(reads <= 1.25 * (input + weight));
      CHECK(reads < im2col / 4);
    }
}

TEST_CASE("physics_conv1x1_stride1_runs_exactly_as_its_plain_gemm", "[physics][conv]") {
  // Its windows are the rows of the M x K matrix: the same addresses, the same cycles.
  const Conv c{4, 24, 40, 96, 160, 1, 1, 0};
  for (const std::string sparsity : {"dense", "2:4"}) {
    const auto conv = conv_op("a100", c, sparsity), gemm = conv_op("a100", c, sparsity, false);
    INFO(sparsity);
    CHECK(conv["cycles"] == gemm["cycles"]);
    CHECK(conv["dram_read_bytes"] == gemm["dram_read_bytes"]);
  }
}

TEST_CASE("physics_conv3x3_more_images_never_take_less_time", "[physics][conv]") {
  for (const std::string sparsity : {"dense", "2:4"}) {
    double prev = 0;
    for (int images : {1, 2, 4, 8}) {
      const double cyc = conv_op("a100", Conv{images, 32, 32, 64, 64, 3, 1, 1}, sparsity)["cycles"];
      INFO(sparsity << " " << images << " images: " << cyc << " cycles, previous " << prev);
      CHECK(cyc >= prev);
      prev = cyc;
    }
  }
}

TEST_CASE("physics_block_pruned_convs_read_no_more_than_their_dense_twins",
          "[physics][conv][block]") {
  // face-api's ResNet-34 (29 convolutions, most 3x3) pruned in 32x32 blocks: the
  // block-skipping kernel gathers the kept channels of each pixel from the NHWC input,
  // so its DRAM reads stay at or under the dense model's (input once, fewer weights),
  // not at the unrolled operand's 9x.
  if (skip_without_real_model("resnet34_face")) return;
  const auto j =
      run_stats("--arch a100 --model resnet34_face --batch 8 --prune dense,block:32x32@0.5");
  REQUIRE(j["variants"].size() == 2);
  const double dense = j["variants"][0]["dram_read_bytes"],
               block = j["variants"][1]["dram_read_bytes"];
  INFO("DRAM reads: dense " << dense << ", block " << block);
  CHECK(block <= 1.05 * dense);
}
