// The implicit-GEMM convolution's activation operand (models/kernels/conv_activation.h):
// the NHWC runs a tile's k-tile reads, derived by hand.
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "models/kernels/conv_activation.h"

using namespace stcsim;

namespace {

ConvActivation activation(std::int64_t images, std::int64_t h, std::int64_t w, std::int64_t r,
                          std::int64_t s, std::int64_t stride, std::int64_t pad,
                          std::int64_t channels) {
  GemmOp op;  // fp16
  op.conv.images = images;
  op.conv.in_h = h;
  op.conv.in_w = w;
  op.conv.kernel_h = r;
  op.conv.kernel_w = s;
  op.conv.stride = stride;
  op.conv.padding = pad;
  op.conv.out_h = (h + 2 * pad - r) / stride + 1;
  op.conv.out_w = (w + 2 * pad - s) / stride + 1;
  op.m = images * op.conv.out_h * op.conv.out_w;
  op.k = channels * r * s;
  op.n = 8;
  return conv_activation(op);
}

// Every (address, bytes) piece the runs read, in order.
std::vector<std::pair<std::uint64_t, std::uint32_t>> pieces(const std::vector<RowRun>& runs) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> out;
  for (const RowRun& r : runs)
    for (std::uint32_t i = 0; i < r.rows; ++i) out.emplace_back(r.addr + i * r.stride, r.bytes);
  return out;
}

bool same(const RowRun& a, const RowRun& b) {
  return a.addr == b.addr && a.bytes == b.bytes && a.rows == b.rows && a.stride == b.stride;
}

}  // namespace

TEST_CASE("conv_activation_1x1_stride1_is_the_matrix_rows", "[unit][conv]") {
  // 2 images of 4x6 pixels, 16 channels: pixel m's channels are row m of an M x 16 matrix.
  const ConvActivation a = activation(2, 4, 6, 1, 1, 1, 0, 16);
  REQUIRE(a.present());
  CHECK(a.tensor_bytes() == 2.0 * 4 * 6 * 16 * 2);
  std::vector<RowRun> runs;
  // Pixels 5..36 (crossing output rows and the image boundary), channels 8..15.
  conv_activation_runs(a, 1000, 5, 32, 8, 8, runs);
  REQUIRE(runs.size() == 1);
  CHECK(same(runs[0], RowRun{1000 + 5 * 32 + 8 * 2, 16, 32, 32}));
}

TEST_CASE("conv_activation_3x3_pad1_runs_by_hand", "[unit][conv]") {
  // 1 image, 4x4 pixels, 8 channels, 3x3 window, stride 1, padding 1: output 4x4.
  // K = (r, s, c) with c fastest: k-tile [0, 16) is taps (0,0) and (0,1), all channels.
  const ConvActivation a = activation(1, 4, 4, 3, 3, 1, 1, 8);
  const std::uint64_t pixel = 8 * 2;
  std::vector<RowRun> runs;
  // Output pixels 4..11: output rows p = 1 and 2, all four columns each.
  conv_activation_runs(a, 0, 4, 8, 0, 16, runs);
  // Tap (0,0): input (p-1, q-1); q = 0 is in the padding, so q 1..3 read columns 0..2.
  // Rows p = 1 (input row 0) and p = 2 (input row 1) do not continue one another
  // (column 3 of row 0 lies between), so they stay two runs.
  // Tap (0,1): input (p-1, q); every column: rows 0 and 1 are contiguous, one run.
  REQUIRE(runs.size() == 3);
  CHECK(same(runs[0], RowRun{0 * pixel, 16, 3, pixel}));  // (h 0, w 0..2)
  CHECK(same(runs[1], RowRun{4 * pixel, 16, 3, pixel}));  // (h 1, w 0..2)
  CHECK(same(runs[2], RowRun{0 * pixel, 16, 8, pixel}));  // (h 0..1, w 0..3)
  // Output row p = 0 under tap (0, *): input row -1, all padding, nothing read.
  runs.clear();
  conv_activation_runs(a, 0, 0, 4, 0, 24, runs);
  CHECK(runs.empty());
  // The last tap (2,2), channels 4..7 (k 68..71), of output pixel 15 (p 3, q 3): input
  // (4, 4), outside; of pixel 10 (p 2, q 2): input (3, 3).
  runs.clear();
  conv_activation_runs(a, 0, 10, 1, 68, 4, runs);
  REQUIRE(runs.size() == 1);
  CHECK(same(runs[0], RowRun{(3 * 4 + 3) * pixel + 4 * 2, 8, 1, pixel}));
  runs.clear();
  conv_activation_runs(a, 0, 15, 1, 68, 4, runs);
  CHECK(runs.empty());
}

TEST_CASE("conv_activation_stride2_channels_fewer_than_the_k_tile", "[unit][conv]") {
  // 1 image 8x8, 3 channels, 3x3 window, stride 2, padding 1: output 4x4, K = 27.
  const ConvActivation a = activation(1, 8, 8, 3, 3, 2, 1, 3);
  const std::uint64_t pixel = 3 * 2;
  std::vector<RowRun> runs;
  // Output row p = 1 (pixels 4..7), the whole K in one k-tile: per tap (r, s), the
  // columns q whose input column 2q - 1 + s is inside; input row 2 - 1 + r. Tap (r, 2)'s
  // last piece and tap (r + 1, 0)'s first are one stride apart, so those runs merge.
  conv_activation_runs(a, 0, 4, 4, 0, 27, runs);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> expected;
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s)
      for (int q = s == 0 ? 1 : 0; q < 4; ++q)
        expected.emplace_back(std::uint64_t((1 + r) * 8 + 2 * q - 1 + s) * pixel, 6);
  CHECK(pieces(runs) == expected);
  CHECK(runs.size() == 7);  // 9 taps, two merges
  for (const RowRun& r : runs) CHECK(r.stride == 2 * pixel);
  // A k-tile that starts inside a tap: k 4..9 is channels 1..2 of tap (0,1) and all of
  // tap (0,2).
  runs.clear();
  conv_activation_runs(a, 0, 4, 1, 4, 6, runs);  // pixel 4: p 1, q 0
  REQUIRE(runs.size() == 2);
  CHECK(same(runs[0], RowRun{std::uint64_t(1 * 8 + 0) * pixel + 2, 4, 1, 2 * pixel}));
  CHECK(same(runs[1], RowRun{std::uint64_t(1 * 8 + 1) * pixel, 6, 1, 2 * pixel}));
}

TEST_CASE("conv_activation_absent_for_a_plain_gemm_or_an_uneven_k", "[unit][conv]") {
  GemmOp op;
  op.m = 64, op.n = 64, op.k = 64;
  CHECK_FALSE(conv_activation(op).present());
  op.conv.images = 1, op.conv.in_h = op.conv.in_w = 8, op.conv.kernel_h = op.conv.kernel_w = 3;
  op.conv.out_h = op.conv.out_w = 8;
  op.k = 28;  // not a multiple of the 9 taps
  CHECK_FALSE(conv_activation(op).present());
}
