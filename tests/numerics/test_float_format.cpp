// Formats: exhaustive decode/encode round trips and hand-derived patterns.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "models/numerics/float_format.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using stcsim::numerics::test::bits_float;

namespace {

// Every non-NaN pattern must come back unchanged under both roundings (its value is
// representable, so no rounding happens); every NaN pattern encodes to the canonical NaN.
// Returns the number of NaN patterns seen.
int check_round_trip(FloatFormat f, std::uint32_t count, std::uint32_t step = 1) {
  int nans = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto bits = static_cast<std::uint32_t>(i * step);
    const double v = decode(f, bits);
    if (std::isnan(v)) {
      ++nans;
      REQUIRE(is_nan(f, bits));
      REQUIRE(encode(f, v, Rounding::NearestEven) == canonical_nan(f));
      continue;
    }
    INFO(to_string(f) << " pattern 0x" << std::hex << bits);
    REQUIRE(encode(f, v, Rounding::NearestEven) == bits);
    REQUIRE(encode(f, v, Rounding::TowardZero) == bits);
  }
  return nans;
}

}  // namespace

TEST_CASE("numerics_format_info", "[numerics]") {
  const FormatInfo h = format_info(FloatFormat::FP16);
  CHECK((h.exp_bits == 5 && h.man_bits == 10 && h.bias == 15 && h.storage_bits == 16 && h.has_inf));
  const FormatInfo t = format_info(FloatFormat::TF32);
  CHECK((t.exp_bits == 8 && t.man_bits == 10 && t.bias == 127 && t.storage_bits == 32));
  const FormatInfo e4 = format_info(FloatFormat::E4M3);
  CHECK((e4.exp_bits == 4 && e4.man_bits == 3 && e4.bias == 7 && !e4.has_inf));
  const FormatInfo e5 = format_info(FloatFormat::E5M2);
  CHECK((e5.exp_bits == 5 && e5.man_bits == 2 && e5.bias == 15 && e5.has_inf));
  CHECK(std::string(to_string(FloatFormat::BF16)) == "bf16");
  // Largest finite: fp16 0x7BFF = (2 - 2^-10) * 2^15 = 65504; bf16 0x7F7F = (2 - 2^-7) * 2^127;
  // E4M3 0x7E = 1.110b * 2^(15-7) = 448; E5M2 0x7B = 1.11b * 2^15 = 57344.
  CHECK(max_finite(FloatFormat::FP16, false) == 0x7BFFu);
  CHECK(max_finite(FloatFormat::BF16, true) == 0xFF7Fu);
  CHECK(max_finite(FloatFormat::E4M3, false) == 0x7Eu);
  CHECK(max_finite(FloatFormat::E5M2, false) == 0x7Bu);
  CHECK(max_finite(FloatFormat::TF32, false) == 0x7F7FE000u);
  CHECK(decode(FloatFormat::E4M3, 0x7E) == 448.0);
  CHECK(decode(FloatFormat::E5M2, 0x7B) == 57344.0);
  CHECK(decode(FloatFormat::FP16, 0x7BFF) == 65504.0);
}

TEST_CASE("numerics_fp16_encode_roundtrip", "[numerics]") {
  // NaNs: exponent 11111 with a nonzero 10-bit mantissa, both signs: 2 * 1023.
  CHECK(check_round_trip(FloatFormat::FP16, 1u << 16) == 2 * 1023);
  // Hand-decoded: 0x3C00 = exp 15-15 = 0 -> 1; 0x0001 = subnormal 1 * 2^(-14-10);
  // 0x0400 = min normal 2^-14; 0xC000 = -(2^1); 0x3555 = (1 + 0x155/1024) * 2^-2.
  CHECK(decode(FloatFormat::FP16, 0x3C00) == 1.0);
  CHECK(decode(FloatFormat::FP16, 0x0001) == std::ldexp(1.0, -24));
  CHECK(decode(FloatFormat::FP16, 0x0400) == std::ldexp(1.0, -14));
  CHECK(decode(FloatFormat::FP16, 0xC000) == -2.0);
  CHECK(decode(FloatFormat::FP16, 0x3555) == (1.0 + 0x155 / 1024.0) / 4.0);
  CHECK(std::isinf(decode(FloatFormat::FP16, 0x7C00)));
  CHECK(std::signbit(decode(FloatFormat::FP16, 0x8000)));
}

#ifdef __FLT16_MAX__
TEST_CASE("numerics_fp16_decode_matches_compiler_float16", "[numerics]") {
  // An independent decoder: the compiler's _Float16, widened to double (exact).
  for (std::uint32_t bits = 0; bits < (1u << 16); ++bits) {
    _Float16 h;
    const auto b16 = static_cast<std::uint16_t>(bits);
    std::memcpy(&h, &b16, sizeof h);
    const double expected = static_cast<double>(h);
    const double got = decode(FloatFormat::FP16, bits);
    if (std::isnan(expected)) {
      REQUIRE(std::isnan(got));
    } else {
      INFO("fp16 0x" << std::hex << bits);
      REQUIRE(got == expected);
      REQUIRE(std::signbit(got) == std::signbit(expected));
    }
  }
}
#endif

TEST_CASE("numerics_bf16_encode_roundtrip", "[numerics]") {
  // NaNs: exponent 0xFF with a nonzero 7-bit mantissa, both signs: 2 * 127.
  CHECK(check_round_trip(FloatFormat::BF16, 1u << 16) == 2 * 127);
  // bf16 is the top half of fp32: an independent decoder is the float with those 16 bits on top.
  for (std::uint32_t bits = 0; bits < (1u << 16); ++bits) {
    const double expected = bits_float(bits << 16);
    const double got = decode(FloatFormat::BF16, bits);
    if (std::isnan(expected)) {
      REQUIRE(std::isnan(got));
    } else {
      INFO("bf16 0x" << std::hex << bits);
      REQUIRE(got == expected);
    }
  }
}

TEST_CASE("numerics_tf32_encode_roundtrip", "[numerics]") {
  // All 2^19 tf32 patterns (fp32 layout, low 13 bits zero).
  CHECK(check_round_trip(FloatFormat::TF32, 1u << 19, 1u << 13) == 2 * 1023);
  // The low 13 bits are not part of tf32: 0x3F801FFF reads as 0x3F800000 = 1.0, and
  // 0x7F800001 (an fp32 NaN only through those bits) reads as +inf.
  CHECK(decode(FloatFormat::TF32, 0x3F801FFFu) == 1.0);
  CHECK(std::isinf(decode(FloatFormat::TF32, 0x7F800001u)));
  CHECK(canonical_nan(FloatFormat::TF32) == 0x7FFFE000u);
  CHECK(encode(FloatFormat::TF32, std::nan(""), Rounding::NearestEven) == 0x7FFFE000u);
}

TEST_CASE("numerics_fp32_encode_roundtrip", "[numerics]") {
  // 2^32 patterns is too many for a unit test: every 4099th (a prime stride) plus the edges.
  check_round_trip(FloatFormat::FP32, (0xFFFFFFFFu / 4099u) + 1, 4099u);
  for (std::uint32_t bits : {0x00000000u, 0x80000000u, 0x00000001u, 0x007FFFFFu, 0x00800000u,
                             0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u}) {
    CHECK(decode(FloatFormat::FP32, bits) == static_cast<double>(bits_float(bits)));
    CHECK(encode(FloatFormat::FP32, decode(FloatFormat::FP32, bits), Rounding::TowardZero) == bits);
  }
}

TEST_CASE("numerics_e4m3_encode_roundtrip", "[numerics]") {
  // E4M3 has exactly one NaN per sign (S.1111.111) and no infinity.
  CHECK(check_round_trip(FloatFormat::E4M3, 256) == 2);
  CHECK(is_nan(FloatFormat::E4M3, 0x7F));
  CHECK(is_nan(FloatFormat::E4M3, 0xFF));
  // 0x78 = S0 E1111 M000: 2^(15-7) = 256, finite (IEEE would call it inf).
  CHECK(decode(FloatFormat::E4M3, 0x78) == 256.0);
  // 0x01 = subnormal 1 * 2^(1-7-3) = 2^-9; 0x08 = min normal 2^(1-7) = 2^-6.
  CHECK(decode(FloatFormat::E4M3, 0x01) == std::ldexp(1.0, -9));
  CHECK(decode(FloatFormat::E4M3, 0x08) == std::ldexp(1.0, -6));
  CHECK(decode(FloatFormat::E4M3, 0xBC) == -1.5);  // S1 E0111 M100: -(1.5 * 2^0)
}

TEST_CASE("numerics_e5m2_encode_roundtrip", "[numerics]") {
  // NaNs: E11111 with M01, M10, M11, both signs.
  CHECK(check_round_trip(FloatFormat::E5M2, 256) == 6);
  CHECK(std::isinf(decode(FloatFormat::E5M2, 0x7C)));
  CHECK(decode(FloatFormat::E5M2, 0xFC) == -INFINITY);
  CHECK(decode(FloatFormat::E5M2, 0x01) == std::ldexp(1.0, -16));  // 1 * 2^(1-15-2)
  CHECK(decode(FloatFormat::E5M2, 0x3C) == 1.0);                   // E01111 M00
}
