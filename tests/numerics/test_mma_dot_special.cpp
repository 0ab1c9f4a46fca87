// NaN, infinity, overflow and subnormals through mma_dot, with hand-derived patterns.
// fp16: 0x7C00 = +inf, 0xFC00 = -inf, 0x7E00 = NaN, 0x3C00 = 1, 0x0001 = 2^-24 (subnormal).
// bf16: 0x3F80 = 1, 0x4000 = 2, 0x7F7F = max (2 - 2^-7) * 2^127, 0x0001 = 2^-133 (subnormal:
// 1 * 2^(-126 - 7)), 0x3700 = 2^-17 (biased 110 = 0x6E, 0x6E << 7).
#include <catch2/catch.hpp>

#include "models/numerics/exact_reference.h"
#include "models/numerics/mma_dot.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using stcsim::numerics::test::dot;
using stcsim::numerics::test::preset;

namespace {
constexpr auto F16 = FloatFormat::FP16;
constexpr auto BF16 = FloatFormat::BF16;
constexpr std::uint32_t kNaN = 0x7FFFFFFFu;
constexpr std::uint32_t kInf = 0x7F800000u;
constexpr std::uint32_t kNegInf = 0xFF800000u;

std::vector<AccumulationModel> all_presets() {
  std::vector<AccumulationModel> r;
  for (const std::string& n : accumulation_preset_names()) r.push_back(accumulation_preset(n));
  return r;
}
}  // namespace

TEST_CASE("numerics_mma_nan_and_inf_propagation", "[numerics]") {
  for (const AccumulationModel& m : all_presets()) {
    INFO(m.name);
    CHECK(dot(F16, {0x7C00, 0xFC00}, {0x3C00, 0x3C00}, 0, m) == kNaN);  // inf - inf
    CHECK(dot(F16, {0x7C00}, {0x0000}, 0, m) == kNaN);                  // inf * 0
    CHECK(dot(F16, {0x3C00}, {0x3C00}, 0x7FC00000u, m) == kNaN);        // NaN in c
    CHECK(dot(F16, {0x3C00}, {0x3C00}, 0xFF800001u, m) == kNaN);        // signalling NaN in c
    CHECK(dot(F16, {0x7E00}, {0x3C00}, 0, m) == kNaN);                  // NaN in a
    CHECK(dot(F16, {0x7C00, 0x3C00}, {0x3C00, 0x3C00}, 0x40A00000u, m) == kInf);  // inf + 1 + 5
    CHECK(dot(F16, {0xFC00, 0x3C00}, {0x3C00, 0x3C00}, 0, m) == kNegInf);
    CHECK(dot(F16, {0xFC00}, {0xFC00}, 0, m) == kInf);            // -inf * -inf
    CHECK(dot(F16, {0x3C00}, {0x3C00}, kInf, m) == kInf);         // inf in c
    CHECK(dot(F16, {0xFC00}, {0x3C00}, kInf, m) == kNaN);         // +inf (c) - inf
    CHECK(dot(FloatFormat::E4M3, {0x7F}, {0x38}, 0, m) == kNaN);  // e4m3 NaN * 1
    CHECK(dot(FloatFormat::E5M2, {0x7C}, {0x3C}, 0, m) == kInf);  // e5m2 inf * 1
  }
  // Across blocks (a100, block 8): an inf in block 1 after a finite block 0; a NaN in block 0
  // stays NaN through the accumulator even when block 1 is finite.
  std::vector<std::uint32_t> a(9, 0x3C00), b(9, 0x3C00);
  a[8] = 0xFC00;
  CHECK(dot(F16, a, b, 0, preset("a100")) == kNegInf);
  a[8] = 0x3C00, a[0] = 0x7E00;
  CHECK(dot(F16, a, b, 0, preset("a100")) == kNaN);
}

TEST_CASE("numerics_mma_overflow_and_carries_past_max", "[numerics]") {
  // bf16 max * 2 = (2 - 2^-7) * 2^128: beyond fp32's largest finite.
  // Toward zero (a100): largest finite 0x7F7FFFFF; nearest (ieee_sequential): inf; h100
  // overflows to inf under toward-zero too, as the H200's bf16 bit capture shows.
  CHECK(dot(BF16, {0x7F7F}, {0x4000}, 0, preset("a100")) == 0x7F7FFFFFu);
  CHECK(dot(BF16, {0x7F7F}, {0x4000}, 0, preset("h100")) == kInf);
  AccumulationModel rz_saturating = preset("h100");
  rz_saturating.overflow_to_infinity = false;
  CHECK(dot(BF16, {0x7F7F}, {0x4000}, 0, rz_saturating) == 0x7F7FFFFFu);
  CHECK(dot(BF16, {0xFF7F}, {0x4000}, 0, preset("h100")) == 0xFF800000u);
  CHECK(dot(BF16, {0x7F7F}, {0x4000}, 0, preset("ieee_sequential")) == kInf);
  // max + max - max in one block: the fused adder keeps the carry, so the exact sum is max,
  // bf16 max as fp32 = 0x7F7F0000. Sequential fp32 overflows on max + max (to inf, nearest)
  // and inf - max stays inf.
  const std::vector<std::uint32_t> a = {0x7F7F, 0x7F7F, 0xFF7F}, b = {0x3F80, 0x3F80, 0x3F80};
  CHECK(exact_dot_fp32(BF16, a.data(), b.data(), 3, 0) == 0x7F7F0000u);
  CHECK(dot(BF16, a, b, 0, preset("a100")) == 0x7F7F0000u);
  CHECK(dot(BF16, a, b, 0, preset("h100")) == 0x7F7F0000u);
  CHECK(dot(BF16, a, b, 0, preset("ieee_sequential")) == kInf);
}

TEST_CASE("numerics_mma_subnormal_inputs", "[numerics]") {
  AccumulationModel flush_in = preset("a100");
  flush_in.flush_subnormal_inputs = true;
  for (const AccumulationModel& m : all_presets()) {
    INFO(m.name);
    // fp16 2^-24 * 1 = 2^-24, a normal fp32: biased 103 = 0x67 -> 0x33800000.
    CHECK(dot(F16, {0x0001}, {0x3C00}, 0, m) == 0x33800000u);
    // bf16 2^-133 * 1: an fp32 subnormal, 2^16 * 2^-149 -> 0x00010000; negative 0x80010000.
    CHECK(dot(BF16, {0x0001}, {0x3F80}, 0, m) == 0x00010000u);
    CHECK(dot(BF16, {0x8001}, {0x3F80}, 0, m) == 0x80010000u);
    // fp32 subnormal c passes through: 0x00000001 + 0 * 0.
    CHECK(dot(F16, {0x0000}, {0x0000}, 0x00000001u, m) == 0x00000001u);
  }
  // Flushed: the subnormal operand is a zero of its sign, so the products are +0 / -0.
  CHECK(dot(F16, {0x0001}, {0x3C00}, 0, flush_in) == 0x00000000u);
  CHECK(dot(BF16, {0x8001}, {0x3F80}, 0x80000000u, flush_in) == 0x80000000u);  // -0 + -0
  CHECK(dot(F16, {0x0000}, {0x0000}, 0x00000001u, flush_in) == 0x00000000u);   // c flushed
}

TEST_CASE("numerics_mma_subnormal_outputs", "[numerics]") {
  // 2^-133 * 2^-133 = 2^-266: far below fp32's 2^-149: zero, keeping the sum's sign.
  for (const AccumulationModel& m : all_presets()) {
    INFO(m.name);
    CHECK(dot(BF16, {0x0001}, {0x0001}, 0, m) == 0x00000000u);
    CHECK(dot(BF16, {0x8001}, {0x0001}, 0, m) == 0x80000000u);
  }
  // c = 2^-149 (0x00000001) + 2^-133 * 2^-17 = 2^-150: exact 1.5 * 2^-149.
  // a100: E = -149, window far below 2^-150, so the sum is exact; toward zero -> 0x00000001.
  // Nearest: a tie between 1 and 2 units -> even 0x00000002 (also the exact reference).
  const std::vector<std::uint32_t> a = {0x0001}, b = {0x3700};
  CHECK(exact_dot_fp32(BF16, a.data(), b.data(), 1, 0x00000001u) == 0x00000002u);
  CHECK(dot(BF16, a, b, 0x00000001u, preset("a100")) == 0x00000001u);
  CHECK(dot(BF16, a, b, 0x00000001u, preset("ieee_sequential")) == 0x00000002u);
  // flush_subnormal_output: the same subnormal results become zeros of their sign.
  AccumulationModel flush_out = preset("a100");
  flush_out.flush_subnormal_output = true;
  CHECK(dot(BF16, a, b, 0x00000001u, flush_out) == 0x00000000u);
  CHECK(dot(BF16, {0x8001}, {0x3F80}, 0, flush_out) == 0x80000000u);
  // A normal result is untouched: 2^-24 -> 0x33800000.
  CHECK(dot(F16, {0x0001}, {0x3C00}, 0, flush_out) == 0x33800000u);
}
