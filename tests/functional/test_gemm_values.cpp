// Whole-GEMM values equal a chain of warp-level mma instructions over K, and the
// ieee_sequential model equals a plain fp32 FMA loop.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "models/functional/gemm_values.h"
#include "models/numerics/mma_dot.h"

using namespace stcsim;
using namespace stcsim::functional;
using numerics::FloatFormat;

namespace {
std::vector<std::uint32_t> random_fp16(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = numerics::encode(FloatFormat::FP16, dist(rng), numerics::Rounding::NearestEven);
  v[0] = numerics::encode(FloatFormat::FP16, 1.5, numerics::Rounding::NearestEven);  // never all zero
  return v;
}
float f32(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
}  // namespace

TEST_CASE("gemm_values_f16_chain_of_instructions", "[functional]") {
  GemmValuesRequest r;
  r.m = 5; r.n = 3; r.k = 40;  // K residue: 40 = 2 x 16 + 8
  r.k_per_instruction = 16;
  r.model = numerics::accumulation_preset("a100");
  const auto a = random_fp16(r.m * r.k, 1), b = random_fp16(r.n * r.k, 2);
  const auto d = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      std::uint32_t acc = 0;
      for (int k0 = 0; k0 < r.k; k0 += 16) {
        std::vector<std::uint32_t> x(16, 0), y(16, 0);
        for (int t = 0; t < 16 && k0 + t < r.k; ++t) {
          x[t] = a[i * r.k + k0 + t];
          y[t] = b[j * r.k + k0 + t];
        }
        acc = numerics::mma_dot(FloatFormat::FP16, x.data(), y.data(), 16, acc, r.model);
      }
      CHECK(d[i * r.n + j] == acc);
    }
}

TEST_CASE("gemm_values_ieee_sequential_is_fma_loop_and_split_k_adds_partials", "[functional]") {
  GemmValuesRequest r;
  r.m = 4; r.n = 4; r.k = 64;
  r.model = numerics::accumulation_preset("ieee_sequential");
  const auto a = random_fp16(r.m * r.k, 3), b = random_fp16(r.n * r.k, 4);
  r.k_per_split = 32;
  const auto d = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      float part[2] = {0, 0};
      for (int s = 0; s < 2; ++s)
        for (int k = s * 32; k < s * 32 + 32; ++k)
          part[s] = std::fmaf(float(numerics::decode(FloatFormat::FP16, a[i * r.k + k])),
                              float(numerics::decode(FloatFormat::FP16, b[j * r.k + k])), part[s]);
      CHECK(f32(d[i * r.n + j]) == part[0] + part[1]);
    }
}

TEST_CASE("gemm_values_int8_exact", "[functional]") {
  GemmValuesRequest r;
  r.m = 2; r.n = 2; r.k = 64; r.integer = true; r.k_per_instruction = 32;
  std::vector<std::uint32_t> a(r.m * r.k), b(r.n * r.k);
  for (std::size_t t = 0; t < a.size(); ++t) a[t] = std::uint32_t(std::int32_t(t % 255) - 127);
  for (std::size_t t = 0; t < b.size(); ++t) b[t] = std::uint32_t(std::int32_t((7 * t) % 255) - 127);
  const auto d = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      std::int64_t s = 0;
      for (int k = 0; k < r.k; ++k) s += std::int64_t(std::int32_t(a[i * r.k + k])) * std::int32_t(b[j * r.k + k]);
      CHECK(std::int32_t(d[i * r.n + j]) == s);
    }
}
