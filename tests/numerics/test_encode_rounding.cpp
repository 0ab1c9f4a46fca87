// encode(): ties, overflow and underflow under both roundings, with hand-derived patterns,
// and against the hardware's own double -> float (and, where the compiler has it,
// double -> _Float16) conversion on random values.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "models/numerics/float_format.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using stcsim::numerics::test::bits_float;
using stcsim::numerics::test::float_bits;

namespace {
constexpr auto kRne = Rounding::NearestEven;
constexpr auto kRtz = Rounding::TowardZero;
double p2(int e) { return std::ldexp(1.0, e); }
}  // namespace

TEST_CASE("numerics_encode_ties_nearest_even_vs_toward_zero", "[numerics]") {
  // fp16 has 10 fraction bits, so next to 1 the spacing is 2^-10.
  // 1 + 2^-11 is halfway between 0x3C00 (1, even) and 0x3C01: RNE picks the even 0x3C00.
  CHECK(encode(FloatFormat::FP16, 1 + p2(-11), kRne) == 0x3C00u);
  CHECK(encode(FloatFormat::FP16, 1 + p2(-11), kRtz) == 0x3C00u);
  // 1 + 3*2^-11 is halfway between 0x3C01 (odd) and 0x3C02 (even): RNE up, RTZ down.
  CHECK(encode(FloatFormat::FP16, 1 + 3 * p2(-11), kRne) == 0x3C02u);
  CHECK(encode(FloatFormat::FP16, 1 + 3 * p2(-11), kRtz) == 0x3C01u);
  // Negative: the same magnitudes with the sign bit 0x8000; toward zero = toward -0.
  CHECK(encode(FloatFormat::FP16, -(1 + 3 * p2(-11)), kRne) == 0xBC02u);
  CHECK(encode(FloatFormat::FP16, -(1 + 3 * p2(-11)), kRtz) == 0xBC01u);
  // Just above the first tie: nearest is 0x3C01; toward zero still 0x3C00.
  CHECK(encode(FloatFormat::FP16, 1 + p2(-11) + p2(-30), kRne) == 0x3C01u);
  CHECK(encode(FloatFormat::FP16, 1 + p2(-11) + p2(-30), kRtz) == 0x3C00u);
  // bf16 (7 fraction bits): 1 + 3*2^-8 ties between 0x3F81 and 0x3F82 (even).
  CHECK(encode(FloatFormat::BF16, 1 + 3 * p2(-8), kRne) == 0x3F82u);
  CHECK(encode(FloatFormat::BF16, 1 + 3 * p2(-8), kRtz) == 0x3F81u);
  // tf32 (10 fraction bits at bits 22..13): 1 + 3*2^-11 -> fraction 2 -> 2 << 13 = 0x4000.
  CHECK(encode(FloatFormat::TF32, 1 + 3 * p2(-11), kRne) == 0x3F804000u);
  CHECK(encode(FloatFormat::TF32, 1 + 3 * p2(-11), kRtz) == 0x3F802000u);
  // E4M3 (3 fraction bits): 1 + 3*2^-4 = 1.1875 ties between 1.125 (0x39) and 1.25 (0x3A).
  CHECK(encode(FloatFormat::E4M3, 1.1875, kRne) == 0x3Au);
  CHECK(encode(FloatFormat::E4M3, 1.1875, kRtz) == 0x39u);
  // E5M2 (2 fraction bits): 1.375 ties between 1.25 (0x3D) and 1.5 (0x3E).
  CHECK(encode(FloatFormat::E5M2, 1.375, kRne) == 0x3Eu);
  CHECK(encode(FloatFormat::E5M2, 1.375, kRtz) == 0x3Du);
  // fp32: 1 + 2^-24 ties between 0x3F800000 (even) and 0x3F800001.
  CHECK(encode(FloatFormat::FP32, 1 + p2(-24), kRne) == 0x3F800000u);
  CHECK(encode(FloatFormat::FP32, 1 + 3 * p2(-24), kRne) == 0x3F800002u);
  CHECK(encode(FloatFormat::FP32, 1 + 3 * p2(-24), kRtz) == 0x3F800001u);
}

TEST_CASE("numerics_encode_overflow", "[numerics]") {
  // fp16: max 65504 = 0x7BFF, spacing there 32. 65519 < 65520 (the halfway point to 65536)
  // rounds down; 65520 is a tie whose even neighbour is 65536 = overflow -> inf 0x7C00.
  CHECK(encode(FloatFormat::FP16, 65519.0, kRne) == 0x7BFFu);
  CHECK(encode(FloatFormat::FP16, 65520.0, kRne) == 0x7C00u);
  CHECK(encode(FloatFormat::FP16, 65520.0, kRtz) == 0x7BFFu);  // toward zero never overflows
  CHECK(encode(FloatFormat::FP16, -1e6, kRtz) == 0xFBFFu);
  CHECK(encode(FloatFormat::FP16, -1e6, kRne) == 0xFC00u);
  CHECK(encode(FloatFormat::FP16, INFINITY, kRtz) == 0x7C00u);  // inf stays inf
  // fp32: 1e39 > max 3.40e38.
  CHECK(encode(FloatFormat::FP32, 1e39, kRne) == 0x7F800000u);
  CHECK(encode(FloatFormat::FP32, 1e39, kRtz) == 0x7F7FFFFFu);
  // E4M3 saturates (no inf): 464 ties between 448 (M110, even) and 480 (would be M111 = NaN);
  // anything larger saturates to 448 = 0x7E as well; inf and NaN give NaN 0x7F.
  CHECK(encode(FloatFormat::E4M3, 464.0, kRne) == 0x7Eu);
  CHECK(encode(FloatFormat::E4M3, 1e4, kRne) == 0x7Eu);
  CHECK(encode(FloatFormat::E4M3, -1e4, kRtz) == 0xFEu);
  CHECK(encode(FloatFormat::E4M3, INFINITY, kRne) == 0x7Fu);
  CHECK(encode(FloatFormat::E4M3, -INFINITY, kRtz) == 0x7Fu);
  // E5M2: max 57344 (M11), spacing 2^13; 61440 ties with 65536 (even) = overflow -> inf 0x7C.
  CHECK(encode(FloatFormat::E5M2, 61440.0, kRne) == 0x7Cu);
  CHECK(encode(FloatFormat::E5M2, 61439.0, kRne) == 0x7Bu);
  CHECK(encode(FloatFormat::E5M2, 61440.0, kRtz) == 0x7Bu);
  // bf16: max (2 - 2^-7) * 2^127 = 0x7F7F; halfway to 2^128 rounds to inf.
  CHECK(encode(FloatFormat::BF16, (2 - p2(-8)) * p2(127), kRne) == 0x7F80u);
  CHECK(encode(FloatFormat::BF16, (2 - p2(-8)) * p2(127), kRtz) == 0x7F7Fu);
}

TEST_CASE("numerics_encode_underflow_subnormals", "[numerics]") {
  // fp16 subnormal spacing 2^-24. 2^-25 is halfway between 0 (even) and 0x0001: 0.
  CHECK(encode(FloatFormat::FP16, p2(-25), kRne) == 0x0000u);
  CHECK(encode(FloatFormat::FP16, 1.5 * p2(-25), kRne) == 0x0001u);  // above halfway
  CHECK(encode(FloatFormat::FP16, 1.5 * p2(-25), kRtz) == 0x0000u);
  CHECK(encode(FloatFormat::FP16, -p2(-26), kRne) == 0x8000u);     // underflow keeps the sign
  CHECK(encode(FloatFormat::FP16, 3 * p2(-25), kRne) == 0x0002u);  // 1.5 ulp: tie -> even 2
  // fp32: 2^-126 - 2^-151 lies 2^-151 below the min normal 0x00800000 and 3*2^-151 above the
  // largest subnormal 0x007FFFFF: nearest rounds up across the boundary, toward zero does not.
  CHECK(encode(FloatFormat::FP32, p2(-126) - p2(-151), kRne) == 0x00800000u);
  CHECK(encode(FloatFormat::FP32, p2(-126) - p2(-151), kRtz) == 0x007FFFFFu);
  CHECK(encode(FloatFormat::FP32, p2(-150), kRne) == 0x00000000u);  // tie with 0 (even)
  CHECK(encode(FloatFormat::FP32, 3 * p2(-151), kRne) == 0x00000001u);
  // E4M3 subnormal spacing 2^-9: 3*2^-10 = 1.5 spacings, tie -> even 2 = 0x02.
  CHECK(encode(FloatFormat::E4M3, 3 * p2(-10), kRne) == 0x02u);
  CHECK(encode(FloatFormat::E4M3, 3 * p2(-10), kRtz) == 0x01u);
  // tf32 subnormals are fp32 subnormals on a 2^-136 grid: 2^-136 -> fraction 1 at bit 13.
  CHECK(encode(FloatFormat::TF32, p2(-136), kRne) == 0x00002000u);
  CHECK(encode(FloatFormat::TF32, p2(-137), kRne) == 0x00000000u);  // tie with 0
}

TEST_CASE("numerics_encode_fp32_matches_hardware_conversion", "[numerics]") {
  // The CPU's double -> float conversion rounds to nearest even: an independent encoder.
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<int> exp_dist(-160, 130);
  std::uniform_real_distribution<double> frac(1.0, 2.0);
  for (int i = 0; i < 200000; ++i) {
    const double v = std::ldexp(frac(rng), exp_dist(rng)) * ((i & 1) ? -1 : 1);
    INFO("v = " << v);
    REQUIRE(encode(FloatFormat::FP32, v, kRne) == float_bits(static_cast<float>(v)));
    // Toward zero: the result is the neighbour of the nearest one on the zero side.
    const std::uint32_t rtz = encode(FloatFormat::FP32, v, kRtz);
    const double r = decode(FloatFormat::FP32, rtz);
    REQUIRE(std::fabs(r) <= std::fabs(v));
    const float next = std::nextafter(bits_float(rtz), v > 0 ? INFINITY : -INFINITY);
    if (std::isfinite(next)) REQUIRE(std::fabs(v) < std::fabs(static_cast<double>(next)));
  }
}

#ifdef __FLT16_MAX__
TEST_CASE("numerics_encode_fp16_matches_compiler_float16", "[numerics]") {
  // GCC's double -> _Float16 conversion (libgcc) rounds once to nearest even.
  std::mt19937_64 rng(777);
  std::uniform_int_distribution<int> exp_dist(-27, 17);
  std::uniform_real_distribution<double> frac(1.0, 2.0);
  for (int i = 0; i < 200000; ++i) {
    const double v = std::ldexp(frac(rng), exp_dist(rng)) * ((i & 1) ? -1 : 1);
    const _Float16 h = static_cast<_Float16>(v);
    std::uint16_t expected;
    std::memcpy(&expected, &h, sizeof expected);
    INFO("v = " << v);
    REQUIRE(encode(FloatFormat::FP16, v, kRne) == expected);
  }
}
#endif
