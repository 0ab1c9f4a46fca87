// Whole-GEMM values equal a chain of warp-level mma instructions over K, and the
// ieee_sequential model equals a plain fp32 FMA loop.
#include <algorithm>
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
  for (auto& x : v)
    x = numerics::encode(FloatFormat::FP16, dist(rng), numerics::Rounding::NearestEven);
  v[0] =
      numerics::encode(FloatFormat::FP16, 1.5, numerics::Rounding::NearestEven);  // never all zero
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
  r.m = 5;
  r.n = 3;
  r.k = 40;  // K residue: 40 = 2 x 16 + 8
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

// A 2:4 b (every group two nonzeros, the others zero) under h100: each mma.sp k32 is one
// dot product of the 16 kept products (b's nonzeros, in increasing k), chained over the
// instructions of a split (the K residue padded with zeros, whose groups keep no product),
// and the two splits' fp32 partials added to nearest.
TEST_CASE("gemm_values_sparse_b_kept_products_split_k_and_residue", "[functional]") {
  GemmValuesRequest r;
  r.m = 3;
  r.n = 4;
  r.k = 104;  // split 64 + 40: instructions 32 + 32, then 32 + 8 (padded)
  r.k_per_instruction = 32;
  r.k_per_split = 64;
  r.model = numerics::accumulation_preset("h100");
  r.sparse_b = sparse::NmPattern{2, 4};
  const auto a = random_fp16(r.m * r.k, 5);
  auto b = random_fp16(r.n * r.k, 6);
  for (std::int64_t j = 0; j < r.n; ++j)
    for (std::int64_t g = 0; g < r.k / 4; ++g) {
      const int keep0 = int((j + g) % 3), keep1 = keep0 + 1 + int(g % (3 - keep0));
      for (int p = 0; p < 4; ++p)
        if (p != keep0 && p != keep1) b[std::size_t(j * r.k + g * 4 + p)] = 0;
    }
  const auto d = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      float part[2] = {0, 0};
      for (int s = 0; s < 2; ++s) {
        std::uint32_t acc = 0;
        const int s0 = s * 64, s1 = std::min<int>(int(r.k), s0 + 64);
        for (int k0 = s0; k0 < s1; k0 += 32) {
          std::vector<std::uint32_t> x, y;
          for (int k = k0; k < std::min(s1, k0 + 32); ++k)
            if (b[std::size_t(j * r.k + k)] != 0) {
              x.push_back(a[std::size_t(i * r.k + k)]);
              y.push_back(b[std::size_t(j * r.k + k)]);
            }
          acc =
              numerics::mma_dot(FloatFormat::FP16, x.data(), y.data(), int(x.size()), acc, r.model);
        }
        part[s] = f32(acc);
      }
      CHECK(f32(d[std::size_t(i * r.n + j)]) == part[0] + part[1]);
    }
  // Positions, not products: under a100 (sparse_blocks_by_position) the same call must
  // equal the dense chain over the positions (pruned ones zero), blocks of 8 positions.
  r.model = numerics::accumulation_preset("a100");
  r.k_per_split = 0;
  const auto dp = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      std::uint32_t acc = 0;
      for (int k0 = 0; k0 < r.k; k0 += 32) {
        std::vector<std::uint32_t> x(32, 0), y(32, 0);
        for (int t = 0; t < 32 && k0 + t < r.k; ++t) {
          x[t] = a[std::size_t(i * r.k + k0 + t)];
          y[t] = b[std::size_t(j * r.k + k0 + t)];
        }
        acc = numerics::mma_dot(FloatFormat::FP16, x.data(), y.data(), 32, acc, r.model);
      }
      CHECK(dp[std::size_t(i * r.n + j)] == acc);
    }
}

TEST_CASE("gemm_values_ieee_sequential_is_fma_loop_and_split_k_adds_partials", "[functional]") {
  GemmValuesRequest r;
  r.m = 4;
  r.n = 4;
  r.k = 64;
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
  r.m = 2;
  r.n = 2;
  r.k = 64;
  r.integer = true;
  r.k_per_instruction = 32;
  std::vector<std::uint32_t> a(r.m * r.k), b(r.n * r.k);
  for (std::size_t t = 0; t < a.size(); ++t) a[t] = std::uint32_t(std::int32_t(t % 255) - 127);
  for (std::size_t t = 0; t < b.size(); ++t)
    b[t] = std::uint32_t(std::int32_t((7 * t) % 255) - 127);
  const auto d = gemm_values(r, a, b);
  for (int i = 0; i < r.m; ++i)
    for (int j = 0; j < r.n; ++j) {
      std::int64_t s = 0;
      for (int k = 0; k < r.k; ++k)
        s += std::int64_t(std::int32_t(a[i * r.k + k])) * std::int32_t(b[j * r.k + k]);
      CHECK(std::int32_t(d[i * r.n + j]) == s);
    }
}

// A tensor core's dot hook gets (w = b's row, x = a's row): the weights first, the way
// the RTL unit takes them as its A. With the golden model behind the hook the values must
// not change: products are exact, so the factors' order cannot show, specials (+-0,
// +-inf, NaN, subnormals, the signs of zero products) included. The values of
// `impl: rtl` rely on this (rtl/model/rtl_dot_values.cpp).
TEST_CASE("gemm_values_dot_hook_with_factors_swapped_equals_golden", "[functional]") {
  std::mt19937 rng(11);
  for (FloatFormat f : {FloatFormat::FP16, FloatFormat::BF16}) {
    for (int split : {0, 32}) {
      GemmValuesRequest r;
      r.m = 6;
      r.n = 5;
      r.k = 72;  // a K residue, and two split-K slices
      r.k_per_instruction = 32;
      r.k_per_split = split;
      r.format = f;
      r.model = numerics::accumulation_preset("a100", f);
      std::vector<std::uint32_t> a(r.m * r.k), b(r.n * r.k);
      const std::uint32_t inf = f == FloatFormat::FP16 ? 0x7C00 : 0x7F80;
      const std::uint32_t specials[] = {0x0000, 0x8000, inf, inf | 0x8000, inf | 1, 0x0001, 0x8001};
      const int mbits = f == FloatFormat::FP16 ? 10 : 7, emid = f == FloatFormat::FP16 ? 15 : 127;
      for (auto* v : {&a, &b})  // finite values of mixed sign and magnitude; 1 in 16 special
        for (auto& x : *v)
          x = rng() % 16 == 0 ? specials[rng() % 7]
                              : (rng() & 1) << 15 | std::uint32_t(emid - 6 + rng() % 12) << mbits |
                                    (rng() & ((1u << mbits) - 1));
      for (std::int64_t j = 0; j < r.n; ++j)  // 2:4 weights: two of every four are +0
        for (std::int64_t g = 0; g < r.k / 4; ++g) b[j * r.k + 4 * g + rng() % 2 * 2] = 0;
      const auto golden = gemm_values(r, a, b);
      r.dot.name = "golden, factors swapped";
      r.dot.fn = [&](const DotChunk& c) {
        return numerics::mma_dot(f, c.w, c.x, c.k, c.c, r.model);
      };
      CHECK(gemm_values(r, a, b) == golden);
    }
  }
  GemmValuesRequest r;  // int8: exact, so equal by construction; the hook still sees w first
  r.m = 3;
  r.n = 4;
  r.k = 64;
  r.integer = true;
  r.k_per_instruction = 32;
  std::vector<std::uint32_t> a(r.m * r.k), b(r.n * r.k);
  for (auto* v : {&a, &b})
    for (auto& x : *v) x = std::uint32_t(std::int32_t(rng() % 256) - 128);
  const auto golden = gemm_values(r, a, b);
  std::int64_t weights_first = 0;
  r.dot.fn = [&](const DotChunk& c) {
    weights_first += c.w[0] == b[std::size_t(c.row * r.k + c.k0)];
    std::vector<std::int32_t> w(c.w, c.w + c.k), x(c.x, c.x + c.k);
    return std::uint32_t(numerics::mma_dot_int(w.data(), x.data(), c.k, std::int32_t(c.c)));
  };
  CHECK(gemm_values(r, a, b) == golden);
  CHECK(weights_first == r.m * r.n * 2);  // every chunk: two instructions per output
}
