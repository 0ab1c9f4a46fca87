// The exact reference itself: hand-derived roundings, the ULP measures, and agreement with
// double arithmetic where double is provably exact.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "models/numerics/exact_reference.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using boost::multiprecision::cpp_int;
using stcsim::numerics::test::float_bits;

namespace {
// 2^e as an ExactValue (units of 2^-320).
ExactValue pow2(int e) {
  ExactValue v{1};
  v.scaled <<= e - ExactValue::kLsbExponent;
  return v;
}
ExactValue operator+(const ExactValue& x, const ExactValue& y) { return {x.scaled + y.scaled}; }
ExactValue operator-(const ExactValue& x, const ExactValue& y) { return {x.scaled - y.scaled}; }
ExactValue times(int n, const ExactValue& x) { return {n * x.scaled}; }
}  // namespace

TEST_CASE("numerics_exact_round_to_fp32_nearest", "[numerics]") {
  CHECK(round_to_fp32_nearest(pow2(0)) == 0x3F800000u);
  CHECK(round_to_fp32_nearest(pow2(0) + pow2(-24)) == 0x3F800000u);               // tie, even down
  CHECK(round_to_fp32_nearest(pow2(0) + times(3, pow2(-24))) == 0x3F800002u);     // tie, even up
  CHECK(round_to_fp32_nearest(pow2(0) + pow2(-24) + pow2(-300)) == 0x3F800001u);  // past tie
  CHECK(round_to_fp32_nearest({-(pow2(0) + times(3, pow2(-24))).scaled}) == 0xBF800002u);
  CHECK(round_to_fp32_nearest(pow2(-150)) == 0x00000000u);            // tie with 0
  CHECK(round_to_fp32_nearest(times(3, pow2(-151))) == 0x00000001u);  // 0.75 * 2^-149
  CHECK(round_to_fp32_nearest({-pow2(-152).scaled}) == 0x80000000u);  // underflow keeps sign
  CHECK(round_to_fp32_nearest(pow2(-126) - pow2(-151)) == 0x00800000u);
  // Overflow: halfway between max (2^128 - 2^104) and 2^128 is 2^128 - 2^103 -> inf.
  CHECK(round_to_fp32_nearest(pow2(128) - pow2(103)) == 0x7F800000u);
  CHECK(round_to_fp32_nearest(pow2(128) - pow2(103) - pow2(-300)) == 0x7F7FFFFFu);
  CHECK(round_to_fp32_nearest({-pow2(200).scaled}) == 0xFF800000u);
  CHECK(round_to_fp32_nearest(ExactValue{0}) == 0x00000000u);
}

TEST_CASE("numerics_exact_ulp_measures", "[numerics]") {
  CHECK(ulp_distance(0x3F800000u, 0x3F800001u) == 1);
  CHECK(ulp_distance(0x3F800001u, 0x3F800000u) == 1);
  CHECK(ulp_distance(0x00000000u, 0x80000000u) == 0);          // +0 and -0 are one point
  CHECK(ulp_distance(0x00000001u, 0x80000001u) == 2);          // through zero
  CHECK(ulp_distance(0x7F7FFFFFu, 0x7F800000u) == 1);          // inf one past max
  CHECK(ulp_distance(0x3F800000u, 0x40000000u) == 0x800000u);  // a binade: 2^23 steps
  CHECK(ulp_distance(0x7FFFFFFFu, 0x7FC00000u) == 0);
  CHECK(ulp_distance(0x7FFFFFFFu, 0x3F800000u) == UINT64_MAX);
  // Error of 1 + 2^-23 against exact 1: one ulp at scale 1, half an ulp at scale 2.
  CHECK(error_in_ulps(pow2(0), 0x3F800001u, pow2(0)) == 1.0);
  CHECK(error_in_ulps(pow2(0), 0x3F800001u, pow2(1)) == 0.5);
  CHECK(error_in_ulps(pow2(0) + pow2(-25), 0x3F800000u, pow2(0)) == 0.25);
  CHECK(error_in_ulps(pow2(-140), 0x00000000u, pow2(-140)) == 512.0);  // ulp floor 2^-149
  CHECK(std::isinf(error_in_ulps(pow2(0), 0x7F800000u, pow2(0))));
}

TEST_CASE("numerics_exact_dot_matches_exact_double_sums", "[numerics]") {
  // fp16 inputs in [2^-4, 2^4) give products with bits from 2^7 down to 2^-28 and fp32 c in
  // [2^-4, 2^4) bits down to 2^-27; 16 of them sum below 2^12. 40 bits < 53: every double
  // addition is exact, and the CPU's double -> float conversion rounds once to nearest even.
  std::mt19937_64 rng(2024);
  std::uniform_int_distribution<int> e16(-4, 3), man16(0, 1023), sign(0, 1);
  std::uniform_int_distribution<std::uint32_t> man32(0, 0x7FFFFF);
  for (int t = 0; t < 10000; ++t) {
    std::uint32_t a[16], b[16];
    double sum = 0;
    auto rand16 = [&] {
      return static_cast<std::uint32_t>((sign(rng) << 15) | ((e16(rng) + 15) << 10) | man16(rng));
    };
    const std::uint32_t c = (static_cast<std::uint32_t>(sign(rng)) << 31) |
                            static_cast<std::uint32_t>(e16(rng) + 127) << 23 | man32(rng);
    sum = decode(FloatFormat::FP32, c);
    for (int i = 0; i < 16; ++i) {
      a[i] = rand16(), b[i] = rand16();
      sum += decode(FloatFormat::FP16, a[i]) * decode(FloatFormat::FP16, b[i]);
    }
    INFO("trial " << t);
    REQUIRE(exact_dot_fp32(FloatFormat::FP16, a, b, 16, c) == float_bits(static_cast<float>(sum)));
  }
}

TEST_CASE("numerics_exact_refuses_non_finite", "[numerics]") {
  const std::uint32_t inf16 = 0x7C00, one16 = 0x3C00;
  CHECK_THROWS_AS(exact_dot(FloatFormat::FP16, &inf16, &one16, 1, 0), std::domain_error);
  CHECK_THROWS_AS(exact_dot(FloatFormat::FP16, &one16, &one16, 1, 0x7FC00000u), std::domain_error);
}
