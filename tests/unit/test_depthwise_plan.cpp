// The depthwise convolution kernel's launch (TensorFlow's NHWC grid-stride kernel), the
// input rows and taps of one pass, its per-tap cost and its compulsory bytes.
#include <catch2/catch.hpp>

#include "models/kernels/depthwise_plan.h"

using namespace stcsim;

namespace {
// A depthwise conv of `c` channels (multiplier `mult`) over `images` NHWC images h x w,
// a square `r` window, stride 1, "same" padding.
GemmOp depthwise(std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t r,
                 std::int64_t images = 8, std::int64_t mult = 1) {
  GemmOp op;
  op.name = "dw";
  op.conv = ConvShape{images, h, w, r, r, 1, r / 2, 1, h, w};
  op.m = images * h * w;
  op.n = mult;
  op.k = r * r;
  op.batch = int(c);
  return op;
}
}  // namespace

TEST_CASE("depthwise_launch_is_tensorflows_grid", "[unit][depthwise]") {
  // 3x3, multiplier 1: TF's compile-time instance, one 1024-thread CTA per SM.
  const DepthwiseShape a = depthwise_shape(depthwise(64, 24, 160, 3), 108);
  CHECK(a.compile_time_filter);
  CHECK(a.outputs == 8 * 24 * 160 * 64);
  CHECK(a.ctas == 108);
  CHECK(a.threads() == 1024);
  CHECK(a.sweeps(0) == 18);    // ceil(1966080 / (108 x 1024)) = 18 passes
  CHECK(a.sweeps(107) == 17);  // the last CTAs have one pass fewer
  // 5x5: the generic instance, the occupancy calculator's grid (2 per SM).
  const DepthwiseShape b = depthwise_shape(depthwise(240, 12, 80, 5), 108);
  CHECK_FALSE(b.compile_time_filter);
  CHECK(b.ctas == 216);
  // Never more CTAs than the outputs need.
  CHECK(depthwise_shape(depthwise(8, 4, 4, 3, 1), 108).ctas == 1);
  // Channel multiplier 2: Cout = 2 x Cin, and not the compile-time instance.
  const DepthwiseShape m = depthwise_shape(depthwise(32, 8, 8, 3, 1, 2), 108);
  CHECK(m.in_channels == 32);
  CHECK(m.out_channels == 64);
  CHECK_FALSE(m.compile_time_filter);
}

TEST_CASE("depthwise_pass_reads_the_window_rows_and_skips_padding", "[unit][depthwise]") {
  // 8 x 8 x 32, 3x3 pad 1: a pass of 1024 outputs = 32 positions = output rows 0..3.
  const DepthwiseShape s = depthwise_shape(depthwise(32, 8, 8, 3, 1), 108);
  CHECK(s.column_taps == std::vector<int>{2, 3, 3, 3, 3, 3, 3, 2});
  CHECK(s.input_row(0, 0) == -1);  // the top padding
  CHECK(s.input_row(7, 2) == -1);  // the bottom padding
  const DepthwisePassRow top = depthwise_pass_row(s, 0, 1024, 0, 2);
  // Filter row 0: output row 0 is in the padding; rows 1..3 read input rows 0..2, whole.
  REQUIRE(top.input_runs.size() == 3);
  CHECK(top.input_runs[0] == std::pair<std::uint64_t, std::uint64_t>{0, 8 * 32 * 2});
  CHECK(top.input_runs[2].first == 2 * 8 * 32 * 2);
  CHECK(top.taps == 3.0 * (8 * 3 - 2) * 32);
  // A pass inside one position (Cout > 1024 would give this): a channel slice, per column.
  const DepthwiseShape wide = depthwise_shape(depthwise(2048, 4, 4, 3, 1), 108);
  const DepthwisePassRow slice = depthwise_pass_row(wide, 1024, 2048, 1, 2);
  REQUIRE(slice.input_runs.size() == 2);  // output (0,0): input columns 0 and 1 of row 0
  CHECK(slice.input_runs[0] == std::pair<std::uint64_t, std::uint64_t>{1024 * 2, 1024 * 2});
  CHECK(slice.taps == 2.0 * 1024);
}

TEST_CASE("depthwise_cost_per_tap_and_compulsory_bytes", "[unit][depthwise]") {
  // Two loads, the FMA and an address instruction; 16-bit inputs widened twice.
  CHECK(depthwise_cycles_per_tap(16, Dtype::FP16) == 6.0);
  CHECK(depthwise_cycles_per_tap(16, Dtype::TF32) == 4.0);
  CHECK(depthwise_cycles_per_tap(32, Dtype::BF16) == 6.0);
  CHECK(depthwise_cycles_per_tap(4, Dtype::TF32) == 8.0);  // a narrow FMA pipe bounds it
  const GemmOp op = depthwise(240, 12, 80, 5);
  // fp16 NHWC input and output of 8 x 12 x 80 x 240, and the 5 x 5 x 240 filter.
  CHECK(depthwise_compulsory_bytes(op) == 2.0 * (8 * 12 * 80 * 240) * 2 + 2.0 * 25 * 240);
}

TEST_CASE("depthwise_kernel_takes_convs_with_one_input_channel_per_group", "[unit][depthwise]") {
  CHECK(is_depthwise(depthwise(32, 8, 8, 3)));
  CHECK(is_depthwise(depthwise(32, 8, 8, 3, 1, 2)));  // multiplier 2
  GemmOp grouped = depthwise(4, 8, 8, 3);
  grouped.k = 8 * 9;  // 8 input channels per group
  CHECK_FALSE(is_depthwise(grouped));
  CHECK(depthwise_unsupported(grouped).empty());  // runs when named, not picked by auto
  GemmOp gemm = depthwise(32, 8, 8, 3);
  gemm.conv = ConvShape{};
  CHECK_FALSE(is_depthwise(gemm));
  CHECK_THAT(depthwise_unsupported(gemm), Catch::Contains("convolution shape"));
  GemmOp sparse = depthwise(32, 8, 8, 3);
  sparse.sparsity = {2, 4};
  CHECK_THAT(depthwise_unsupported(sparse), Catch::Contains("dense weights only"));
}
