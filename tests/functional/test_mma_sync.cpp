// Dense mma.sync on fragments equals the logical-matrix reference computed directly with
// numerics::mma_dot, bit for bit, under every accumulation preset.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include "models/functional/fragment_layout.h"
#include "models/functional/mma_sync.h"
#include "models/numerics/accumulation_model.h"
#include "sim/core/input_error.h"
#include "tests/functional/direct_reference.h"
#include "tests/functional/failure_dump.h"
#include "tests/functional/random_operands.h"

using namespace stcsim;
using namespace stcsim::functional;

static void check_dense_matches_reference(Shape s, MmaType t) {
  const std::string name = type_pair(t) + "_" + to_string(s);
  const int k = k_of(s);
  std::mt19937 rng(std::hash<std::string>{}(name)&0xFFFF);
  auto elem = [&] { return testing::random_element(rng, t); };
  auto acc = [&] { return testing::random_accumulator(rng, t); };
  for (const std::string& preset : numerics::accumulation_preset_names()) {
    const numerics::AccumulationModel model =
        t == MmaType::S8 ? numerics::accumulation_preset(preset)
                         : numerics::accumulation_preset(preset, float_format(t));
    for (int trial = 0; trial < 25; ++trial) {
      const auto a = testing::random_matrix(16, k, elem);
      const auto b = testing::random_matrix(k, 8, elem);
      const auto c = testing::random_matrix(16, 8, acc);
      const auto d = cd_from_fragment(
          mma_sync(s, t, a_to_fragment(s, t, a), b_to_fragment(s, t, b), cd_to_fragment(c), model));
      const auto want = testing::direct_reference(t, 16, 8, k, a, b, c, model);
      if (d != want) {
        const std::string file =
            testing::dump_failure(name, "preset " + preset + ", trial " + std::to_string(trial),
                                  {{"A", 16, k, a},
                                   {"B", k, 8, b},
                                   {"C", 16, 8, c},
                                   {"D (mma_sync)", 16, 8, d},
                                   {"D expected (direct mma_dot)", 16, 8, want}});
        FAIL(name << " differs from the reference under preset " << preset << "; operands in "
                  << file);
      }
    }
  }
}

TEST_CASE("f16_f32_m16n8k16_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K16, MmaType::F16);
}
TEST_CASE("bf16_f32_m16n8k16_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K16, MmaType::BF16);
}
TEST_CASE("f16_f32_m16n8k8_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K8, MmaType::F16);
}
TEST_CASE("bf16_f32_m16n8k8_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K8, MmaType::BF16);
}
TEST_CASE("tf32_f32_m16n8k8_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K8, MmaType::TF32);
}
TEST_CASE("s8_s32_m16n8k32_matches_reference", "[functional]") {
  check_dense_matches_reference(Shape::M16N8K32, MmaType::S8);
}

// A hand-checkable case: A = I (first 8 columns), B[k][n] = k + n, C = 0.5 everywhere:
// D[i][j] = B[i][j] + 0.5 for i < 8 (exact under every preset).
TEST_CASE("f16_f32_m16n8k16_identity_by_hand", "[functional]") {
  std::vector<std::uint32_t> a(16 * 16, 0), b(16 * 8), c(16 * 8, 0x3F000000);
  for (int i = 0; i < 8; ++i) a[i * 16 + i] = 0x3C00;  // 1.0
  const std::uint32_t small_ints[] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500,
                                      0x4600, 0x4700, 0x4800, 0x4880, 0x4900, 0x4980,
                                      0x4A00, 0x4A80, 0x4B00, 0x4B80, 0x4C00, 0x4C40,
                                      0x4C80, 0x4CC0, 0x4D00, 0x4D40, 0x4D80};  // 0 .. 22
  for (int k = 0; k < 16; ++k)
    for (int n = 0; n < 8; ++n) b[k * 8 + n] = small_ints[k + n];
  for (const std::string& preset : numerics::accumulation_preset_names()) {
    const auto d = cd_from_fragment(
        mma_sync(Shape::M16N8K16, MmaType::F16, a_to_fragment(Shape::M16N8K16, MmaType::F16, a),
                 b_to_fragment(Shape::M16N8K16, MmaType::F16, b), cd_to_fragment(c),
                 numerics::accumulation_preset(preset, numerics::FloatFormat::FP16)));
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        const float want = i < 8 ? float(i + j) + 0.5f : 0.5f;
        float got;
        std::memcpy(&got, &d[i * 8 + j], 4);
        CHECK(got == want);
      }
  }
  CHECK_THROWS_AS(mma_sync(Shape::M16N8K32, MmaType::F16, WarpFragment(4), WarpFragment(2),
                           WarpFragment(4), numerics::accumulation_preset("a100")),
                  InputError);
}

TEST_CASE("failure_dump_writes_a_file_named_by_the_test", "[functional]") {
  const std::string file = testing::dump_failure("selftest_f16_f32_m16n8k16", "preset a100",
                                                 {{"C", 2, 2, {1, 2, 0xdeadbeef, 4}}});
  CHECK(file == "failure_selftest_f16_f32_m16n8k16.txt");
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text,
             Catch::Matchers::Contains("preset a100") && Catch::Matchers::Contains("deadbeef"));
  in.close();
  std::remove(file.c_str());
}
