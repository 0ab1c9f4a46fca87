// Lowering of Linear and Conv2d layers to GEMMs, shapes computed by hand in each case.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "workloads/lowering/lowering.h"

using namespace stcsim;
using namespace stcsim::workloads;

namespace {

// The shared constructor of workloads/layer.h, under a short name.
Layer linear(const std::string& name, std::int64_t in, std::int64_t out) {
  return linear_layer(name, in, out);
}

LoweringOptions opts(std::int64_t batch, std::int64_t seq = 1) {
  LoweringOptions o;
  o.batch = batch;
  o.seq_len = seq;
  return o;
}

}  // namespace

TEST_CASE("linear_m_is_batch_times_seq_n_out_k_in", "[lowering]") {
  const LoweredGemm g = lower_layer(linear("fc", 768, 3072), opts(8, 512));
  CHECK(g.m == 4096);
  CHECK(g.n == 3072);
  CHECK(g.k == 768);
  CHECK(g.batch == 1);
  CHECK(g.a_role == kRoleActivations);
  CHECK(g.b_role == kRoleWeight);
  CHECK(g.flops() == 2.0 * 4096 * 3072 * 768);
  CHECK(g.weight_params() == 3072 * 768);
}

TEST_CASE("linear_with_token_grid_ignores_seq_len", "[lowering]") {
  Layer l = linear("head", 768, 1000);
  l.in_h = l.in_w = 1;  // class token only
  CHECK(lower_layer(l, opts(4, 197)).m == 4);
  l.in_h = 2;
  l.in_w = 40;  // a 2 x 40 feature map, one token per position
  CHECK(lower_layer(l, opts(3, 197)).m == 240);
}

TEST_CASE("conv_7x7_stride2_pad3", "[lowering]") {
  // P = (224 + 6 - 7) / 2 + 1 = 112
  const LoweredGemm g = lower_layer(conv2d_layer("c1", 3, 64, 7, 2, 3, 224, 224), opts(2));
  CHECK(g.m == 2 * 112 * 112);
  CHECK(g.n == 64);
  CHECK(g.k == 3 * 7 * 7);
  CHECK(g.batch == 1);
  CHECK(g.a_role == kRoleIm2col);
}

TEST_CASE("conv_3x3_stride2_pad1_and_1x1_stride2", "[lowering]") {
  // (56 + 2 - 3) / 2 + 1 = 28; 1x1/2 pad 0: (56 - 1) / 2 + 1 = 28
  CHECK(lower_layer(conv2d_layer("c", 128, 128, 3, 2, 1, 56, 56), opts(1)).m == 28 * 28);
  CHECK(lower_layer(conv2d_layer("d", 256, 512, 1, 2, 0, 56, 56), opts(1)).m == 28 * 28);
  // Odd input: (57 + 2 - 3) / 2 + 1 = 29
  CHECK(lower_layer(conv2d_layer("c", 8, 8, 3, 2, 1, 57, 57), opts(1)).m == 29 * 29);
}

TEST_CASE("conv_non_square_input_no_padding", "[lowering]") {
  // P = (20 - 3) / 2 + 1 = 9, Q = (30 - 3) / 2 + 1 = 14
  const LoweredGemm g = lower_layer(conv2d_layer("c", 16, 32, 3, 2, 0, 20, 30), opts(3));
  CHECK(g.m == 3 * 9 * 14);
  CHECK(g.k == 16 * 9);
}

TEST_CASE("conv_dilation_2", "[lowering]") {
  // span = 2 * (3 - 1) + 1 = 5: (32 + 4 - 5) / 1 + 1 = 32 ("same" with pad 2)
  CHECK(lower_layer(conv2d_layer("c", 64, 64, 3, 1, 2, 32, 32, 1, 2), opts(1)).m == 32 * 32);
  // no padding: 10 - 5 + 1 = 6; stride 2: (10 - 5) / 2 + 1 = 3
  CHECK(lower_layer(conv2d_layer("c", 64, 64, 3, 1, 0, 10, 10, 1, 2), opts(1)).m == 36);
  CHECK(lower_layer(conv2d_layer("c", 64, 64, 3, 2, 0, 10, 10, 1, 2), opts(1)).m == 9);
  // K does not change with dilation
  CHECK(lower_layer(conv2d_layer("c", 64, 64, 3, 2, 0, 10, 10, 1, 2), opts(1)).k == 64 * 9);
}

TEST_CASE("conv_depthwise_is_groups_batched_gemms", "[lowering]") {
  const LoweredGemm g = lower_layer(conv2d_layer("dw", 32, 32, 3, 1, 1, 16, 16, 32), opts(2));
  CHECK(g.batch == 32);
  CHECK(g.n == 1);
  CHECK(g.k == 9);
  CHECK(g.m == 2 * 16 * 16);
  CHECK(g.weight_rows() == 32);
  // channel multiplier 2: N = 2 per group
  const LoweredGemm g2 = lower_layer(conv2d_layer("dw2", 32, 64, 3, 2, 1, 16, 16, 32), opts(1));
  CHECK(g2.batch == 32);
  CHECK(g2.n == 2);
  CHECK(g2.m == 8 * 8);
  CHECK(g2.flops() == 2.0 * 64 * 2 * 9 * 32);
}

TEST_CASE("conv_carries_its_geometry_for_direct_kernels", "[lowering]") {
  // A direct convolution kernel reads the NHWC input through it.
  const LoweredGemm g = lower_layer(conv2d_layer("dw2", 32, 64, 3, 2, 1, 16, 16, 32, 1), opts(3));
  CHECK(g.conv.present());
  CHECK(g.conv.images == 3);
  CHECK(g.conv.in_h == 16);
  CHECK(g.conv.in_w == 16);
  CHECK(g.conv.kernel_h == 3);
  CHECK(g.conv.kernel_w == 3);
  CHECK(g.conv.stride == 2);
  CHECK(g.conv.padding == 1);
  CHECK(g.conv.dilation == 1);
  CHECK(g.conv.out_h == 8);
  CHECK(g.conv.out_w == 8);
  CHECK(g.m == g.conv.images * g.conv.out_h * g.conv.out_w);
  CHECK_FALSE(lower_layer(linear_layer("fc", 8, 8), opts(1)).conv.present());
}

TEST_CASE("conv_grouped", "[lowering]") {
  const LoweredGemm g = lower_layer(conv2d_layer("g", 64, 128, 3, 1, 1, 14, 14, 4), opts(1));
  CHECK(g.batch == 4);
  CHECK(g.n == 32);
  CHECK(g.k == 16 * 9);
  CHECK(g.m == 196);
  CHECK(g.weight_params() == 128 * 16 * 9);
}

TEST_CASE("lower_model_keeps_order_and_rescales_images", "[lowering]") {
  Model m;
  m.name = "tiny";
  m.layers = {conv2d_layer("c1", 3, 64, 7, 2, 3, 224, 224),
              conv2d_layer("c2", 64, 64, 3, 2, 1, 56, 56), linear("fc", 64, 10)};
  m.layers[2].in_h = m.layers[2].in_w = 1;
  auto g = lower_model(m, opts(1));
  REQUIRE(g.size() == 3);
  CHECK(g[0].name == "c1");
  CHECK(g[1].name == "c2");
  CHECK(g[2].name == "fc");
  CHECK(g[1].m == 28 * 28);
  LoweringOptions o = opts(1);
  o.image_h = o.image_w = 256;  // 256 -> 128; 56 * 256 / 224 = 64 -> 32
  g = lower_model(m, o);
  CHECK(g[0].m == 128 * 128);
  CHECK(g[1].m == 32 * 32);
  CHECK(g[2].m == 1);
  o.image_h =
      225;  // 225 -> 113; ceil(56 * 225 / 224) = 57 -> 29 (the real pipeline gives 113 -> 57 -> 29)
  o.image_w = 320;  // 320 -> 160; 80 -> 40
  g = lower_model(m, o);
  CHECK(g[0].m == 113 * 160);
  CHECK(g[1].m == 29 * 40);
}

TEST_CASE("lowering_rejects_impossible_shapes", "[lowering]") {
  CHECK_THROWS_AS(lower_layer(conv2d_layer("g", 30, 64, 3, 1, 1, 8, 8, 4), opts(1)), InputError);
  CHECK_THROWS_WITH(lower_layer(conv2d_layer("big", 8, 8, 7, 1, 0, 5, 5), opts(1)),
                    Catch::Contains("layer 'big'") && Catch::Contains("exceeds the padded input"));
  CHECK_THROWS_AS(lower_layer(conv2d_layer("s0", 8, 8, 3, 0, 1, 8, 8), opts(1)), InputError);
  CHECK_THROWS_AS(lower_layer(linear("fc", 0, 8), opts(1)), InputError);
  CHECK_THROWS_AS(lower_layer(linear("fc", 8, 8), opts(0)), InputError);
  Model m;
  m.name = "mlp";
  m.layers = {linear("fc", 8, 8)};
  LoweringOptions o = opts(1);
  o.image_h = o.image_w = 64;
  CHECK_THROWS_WITH(lower_model(m, o), Catch::Contains("no convolution"));
  o.image_w = 0;
  CHECK_THROWS_WITH(lower_model(m, o), Catch::Contains("both image height and width"));
  o = opts(1, 0);
  CHECK_THROWS_AS(lower_model(m, o), InputError);
}
