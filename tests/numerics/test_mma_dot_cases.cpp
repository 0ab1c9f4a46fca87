// Hand-derived cases of the fused-block accumulation model (see fused_block_sum.h). Each case
// states its terms, the block each preset puts them in, the alignment window (last kept place
// 2^(E - 23 - extra_bits), E = leading exponent of the block's largest term) and the result.
// fp16 operand patterns used throughout:
//   0x3C00 = 1, 0xBC00 = -1, 0x0000 = +0, 0x8000 = -0,
//   0x0C00 = 2^-12 (biased exponent 3), 0x8C00 = -2^-12, 0x0800 = 2^-13 (biased 2),
//   0x0200 = 2^-15 (subnormal: 512 * 2^-24), 0x3FFF = 2 - 2^-10 (largest significand at 2^0).
#include <catch2/catch.hpp>

#include "models/numerics/exact_reference.h"
#include "models/numerics/mma_dot.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using stcsim::numerics::test::dot;
using stcsim::numerics::test::preset;
using stcsim::numerics::test::with_rounding;

namespace {
constexpr auto F16 = FloatFormat::FP16;
constexpr std::uint32_t kOne32 = 0x3F800000u;
constexpr std::uint32_t k2m30 = 0x30800000u;  // 2^-30: biased 97 = 0x61, 0x61 << 23

std::uint32_t exact(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                    std::uint32_t c) {
  return exact_dot_fp32(F16, a.data(), b.data(), static_cast<int>(a.size()), c);
}
}  // namespace

TEST_CASE("numerics_mma_cancellation_1_plus_2m30_minus_1", "[numerics]") {
  // Products 1, 2^-30 (2^-15 * 2^-15), -1; c = +0. Exact sum 2^-30 = 0x30800000.
  const std::vector<std::uint32_t> a = {0x3C00, 0x0200, 0xBC00}, b = {0x3C00, 0x0200, 0x3C00};
  CHECK(exact(a, b, 0) == k2m30);
  // a100/h100: one block (3 <= 8, 16); E = 0; window ends at 2^-24 (a100) / 2^-25 (h100), so
  // 2^-30 truncates to 0 and 1 - 1 = 0 exactly: +0.
  CHECK(dot(F16, a, b, 0, preset("a100")) == 0x00000000u);
  CHECK(dot(F16, a, b, 0, preset("h100")) == 0x00000000u);
  // ieee_sequential: fma(1,1,0) = 1; fma(2^-15,2^-15,1) = 1 + 2^-30 -> 1 (2^-30 is below half
  // an ulp, 2^-24); fma(-1,1,1) = +0.
  CHECK(dot(F16, a, b, 0, preset("ieee_sequential")) == 0x00000000u);

  // Cancel first, then add the small term: sequential keeps it (1, 0, 2^-30); the fused block
  // still aligns 2^-30 to E = 0 and drops it.
  const std::vector<std::uint32_t> a2 = {0x3C00, 0xBC00, 0x0200}, b2 = {0x3C00, 0x3C00, 0x0200};
  CHECK(dot(F16, a2, b2, 0, preset("ieee_sequential")) == k2m30);
  CHECK(dot(F16, a2, b2, 0, preset("a100")) == 0x00000000u);
  CHECK(dot(F16, a2, b2, 0, preset("h100")) == 0x00000000u);
}

TEST_CASE("numerics_mma_alignment_loss_in_block_kept_across_blocks", "[numerics]") {
  // Products 1, -1, six zeros, then 2^-30 at index 8; c = +0. Exact: 2^-30.
  std::vector<std::uint32_t> a(9, 0x0000), b(9, 0x3C00);
  a[0] = 0x3C00, a[1] = 0xBC00, a[8] = 0x0200, b[8] = 0x0200;
  CHECK(exact(a, b, 0) == k2m30);
  // a100: block 0 = {c, 1, -1, 0...} sums to +0; block 1 = {acc +0, 2^-30} is 2^-30 alone,
  // exact: the small term survives because it is in a block of its own.
  CHECK(dot(F16, a, b, 0, preset("a100")) == k2m30);
  // h100: all nine products in one block of 16: E = 0, 2^-30 below the window 2^-25: lost.
  CHECK(dot(F16, a, b, 0, preset("h100")) == 0x00000000u);
}

TEST_CASE("numerics_mma_a100_vs_h100_extra_alignment_bit", "[numerics]") {
  // Products 1 and four times 2^-25 (2^-13 * 2^-12); c = +0. Exact 1 + 2^-23 = 0x3F800001.
  const std::vector<std::uint32_t> a = {0x3C00, 0x0800, 0x0800, 0x0800, 0x0800};
  const std::vector<std::uint32_t> b = {0x3C00, 0x0C00, 0x0C00, 0x0C00, 0x0C00};
  CHECK(exact(a, b, 0) == 0x3F800001u);
  // One block for both. E = 0. a100 keeps 25 bits (down to 2^-24): each 2^-25 truncates to 0,
  // sum 1 = 0x3F800000. h100 keeps 26 bits (down to 2^-25): 1 + 4 * 2^-25 = 1 + 2^-23, exact
  // in fp32: 0x3F800001.
  CHECK(dot(F16, a, b, 0, preset("a100")) == 0x3F800000u);
  CHECK(dot(F16, a, b, 0, preset("h100")) == 0x3F800001u);
  // ieee_sequential: 1 + 2^-25 rounds back to 1 each time (below half an ulp): 0x3F800000.
  CHECK(dot(F16, a, b, 0, preset("ieee_sequential")) == 0x3F800000u);
}

// The window's top: the leading bit of the largest term, or (align_on_exponents) one bit
// above the largest exponent. They differ only when the largest product has its upper
// integer bit set: 1.5 * 1.5 = 2.25 (0x3E00 = 1.5) has exponent 0 and leading bit 2^1.
// Products 2.25 and twice 2^-23 (0x0C00 * 0x1000 = 2^-12 * 2^-11); c = +0. Exact
// 2.25 + 2^-22, an fp32 (its last place at 2^1 is 2^-22): 0x40100001.
TEST_CASE("numerics_mma_window_from_leading_bit_or_exponent", "[numerics]") {
  const std::vector<std::uint32_t> a = {0x3E00, 0x0C00, 0x0C00};
  const std::vector<std::uint32_t> b = {0x3E00, 0x1000, 0x1000};
  CHECK(exact(a, b, 0) == 0x40100001u);
  AccumulationModel m = preset("h100");
  m.extra_bits = 0;
  // From the leading bit 2^1: 24 bits, down to 2^-22; each 2^-23 truncates to 0: 2.25.
  m.align_on_exponents = false;
  CHECK(dot(F16, a, b, 0, m) == 0x40100000u);
  // From the exponent 0: two integer bits (2^1, 2^0) and 23 fraction bits, down to 2^-23:
  // both kept, 2.25 + 2^-22.
  m.align_on_exponents = true;
  CHECK(dot(F16, a, b, 0, m) == 0x40100001u);
  // Where the largest product is below 2 (1 * 1, leading bit = exponent = 0) both windows
  // end at 2^-23: products 1 and twice 2^-23 give 1 + 2^-22 = 0x3F800002 either way.
  const std::vector<std::uint32_t> a1 = {0x3C00, 0x0C00, 0x0C00};
  const std::vector<std::uint32_t> b1 = {0x3C00, 0x1000, 0x1000};
  for (bool on_exponents : {false, true}) {
    m.align_on_exponents = on_exponents;
    CHECK(dot(F16, a1, b1, 0, m) == 0x3F800002u);
  }
}

TEST_CASE("numerics_mma_a100_vs_h100_block_size", "[numerics]") {
  // Products 1, 2^-24 (2^-12 * 2^-12), six zeros, 2^-24 at index 8; c = +0.
  // Exact 1 + 2^-23 = 0x3F800001.
  std::vector<std::uint32_t> a(9, 0x0000), b(9, 0x3C00);
  a[0] = 0x3C00, a[1] = 0x0C00, b[1] = 0x0C00, a[8] = 0x0C00, b[8] = 0x0C00;
  CHECK(exact(a, b, 0) == 0x3F800001u);
  // a100: block 0 sums 1 + 2^-24 exactly (window reaches 2^-24) but rounding toward zero into
  // fp32 (last place 2^-23) gives 1; block 1 does the same again: 0x3F800000.
  CHECK(dot(F16, a, b, 0, preset("a100")) == 0x3F800000u);
  // h100: one block of 16: 1 + 2^-24 + 2^-24 = 1 + 2^-23 before the single rounding.
  CHECK(dot(F16, a, b, 0, preset("h100")) == 0x3F800001u);
  // ieee_sequential: 1 + 2^-24 is a tie, nearest even gives 1, twice: 0x3F800000.
  CHECK(dot(F16, a, b, 0, preset("ieee_sequential")) == 0x3F800000u);
}

TEST_CASE("numerics_mma_carries_into_new_leading_bits", "[numerics]") {
  // Each product (2 - 2^-10)^2 = 4 - 2^-8 + 2^-20 has its leading bit at 2^1.
  // 8 products + c = 3*2^-21 (fp32 0x35C00000: biased 107, fraction .5):
  //   sum = 32 - 2^-5 + 2^-17 + 3*2^-21; three carries move the leading bit to 2^4.
  // a100, one block: E = 1, window down to 2^-23, every term fits: the sum is exact.
  // In units of 2^-21: 2^26 - 2^16 + 2^4 + 3 = 67043347. fp32 at 2^4 keeps units of 2^-19
  // (4 of ours): 67043347 / 4 = 16760836.75.
  //   toward zero: 16760836 -> fraction 16760836 - 2^23 = 0x7FC004, biased 131: 0x41FFC004
  //   nearest:     16760837 -> 0x41FFC005 (also the exact reference)
  std::vector<std::uint32_t> a(8, 0x3FFF), b(8, 0x3FFF);
  CHECK(exact(a, b, 0x35C00000u) == 0x41FFC005u);
  CHECK(dot(F16, a, b, 0x35C00000u, preset("a100")) == 0x41FFC004u);
  CHECK(dot(F16, a, b, 0x35C00000u, with_rounding(preset("a100"), Rounding::NearestEven)) ==
        0x41FFC005u);

  // 16 products + c = 7*2^-21 (0x36600000: biased 108, fraction .75): four carries, leading
  // bit 2^5. Units of 2^-21: 2^27 - 2^17 + 2^5 + 7 = 134086695; fp32 keeps units of 2^-18
  // (8 of ours): 16760836.875.
  //   h100, one block (window to 2^-24, exact): toward zero 16760836 -> biased 132,
  //   fraction 0x7FC004: 0x427FC004; nearest: 0x427FC005 (the exact reference).
  //   a100, two blocks: block 0 = c + 8 products = 67043351 units of 2^-21 -> 16760837.75 units
  //   of 2^-19 -> 16760837 (0x41FFC005); block 1: E = 4, window to 2^-20, exact sum in units of
  //   2^-20: 2 * 16760837 + 2^25 - 2^15 + 2^3 = 67043346 -> units of 2^-18: 16760836.5 ->
  //   toward zero 0x427FC004.
  std::vector<std::uint32_t> a16(16, 0x3FFF), b16(16, 0x3FFF);
  CHECK(exact(a16, b16, 0x36600000u) == 0x427FC005u);
  CHECK(dot(F16, a16, b16, 0x36600000u, preset("h100")) == 0x427FC004u);
  CHECK(dot(F16, a16, b16, 0x36600000u, with_rounding(preset("h100"), Rounding::NearestEven)) ==
        0x427FC005u);
  CHECK(dot(F16, a16, b16, 0x36600000u, preset("a100")) == 0x427FC004u);
}

TEST_CASE("numerics_mma_block_rounding_ties", "[numerics]") {
  // c = 1 + 2^-23 (0x3F800001), product 2^-24: the block sum 1 + 3*2^-24 (window to 2^-24 for
  // a100) is exactly halfway between 0x3F800001 (odd) and 0x3F800002 (even).
  const std::vector<std::uint32_t> a = {0x0C00}, b = {0x0C00};
  CHECK(dot(F16, a, b, 0x3F800001u, preset("a100")) == 0x3F800001u);  // toward zero
  CHECK(dot(F16, a, b, 0x3F800001u, with_rounding(preset("a100"), Rounding::NearestEven)) ==
        0x3F800002u);
  CHECK(dot(F16, a, b, 0x3F800001u, preset("ieee_sequential")) == 0x3F800002u);
  // Negative mirror: c = -(1 + 2^-23), product -2^-24 (0x8C00 * 0x0C00).
  const std::vector<std::uint32_t> an = {0x8C00};
  CHECK(dot(F16, an, b, 0xBF800001u, preset("a100")) == 0xBF800001u);
  CHECK(dot(F16, an, b, 0xBF800001u, preset("ieee_sequential")) == 0xBF800002u);
  // c = 1 (even) + 2^-24: the tie goes to 1 under both: 0x3F800000.
  CHECK(dot(F16, a, b, kOne32, preset("a100")) == kOne32);
  CHECK(dot(F16, a, b, kOne32, preset("ieee_sequential")) == kOne32);
}

TEST_CASE("numerics_mma_c_in_first_block_or_after", "[numerics]") {
  // c = 2^-30, products 1 and -1. Exact: 2^-30.
  const std::vector<std::uint32_t> a = {0x3C00, 0xBC00}, b = {0x3C00, 0x3C00};
  // c in the first block: {2^-30, 1, -1}, E = 0: c truncates to 0, result +0.
  CHECK(dot(F16, a, b, k2m30, preset("a100")) == 0x00000000u);
  // c added after: block {1, -1} = +0, then {+0, 2^-30} = 2^-30.
  AccumulationModel m = preset("a100");
  m.c_in_first_block = false;
  CHECK(dot(F16, a, b, k2m30, m) == k2m30);
}

TEST_CASE("numerics_mma_normalize_within_block", "[numerics]") {
  // Products 1, -1, 2^-30 in one block; c = +0.
  const std::vector<std::uint32_t> a = {0x3C00, 0xBC00, 0x0200}, b = {0x3C00, 0x3C00, 0x0200};
  // Published model (no renormalisation): all aligned to E = 0, 2^-30 is lost: +0.
  CHECK(dot(F16, a, b, 0, preset("a100")) == 0x00000000u);
  // Renormalising between additions: partial 1, then 1 - 1 = 0, then 0 + 2^-30 = 2^-30.
  // (Windows counted from the leading bit, as the derivations below assume.)
  AccumulationModel m = preset("a100");
  m.align_on_exponents = false;
  m.normalize_within_block = true;
  CHECK(dot(F16, a, b, 0, m) == k2m30);
  // Renormalising also costs bits after a carry. c = 2 - 2^-23 (0x3FFFFFFF), products 2^-23
  // (0x0C00 * 0x1000 = 2^-12 * 2^-11) and four times 2^-24. Exact: 2 + 2^-22 = 0x40000001.
  std::vector<std::uint32_t> a3 = {0x0C00, 0x0C00, 0x0C00, 0x0C00, 0x0C00};
  std::vector<std::uint32_t> b3 = {0x1000, 0x0C00, 0x0C00, 0x0C00, 0x0C00};
  CHECK(exact(a3, b3, 0x3FFFFFFFu) == 0x40000001u);
  // Fused: E = 0 (c), window to 2^-24 holds every term; the exact sum 2 + 2^-22 is an fp32.
  CHECK(dot(F16, a3, b3, 0x3FFFFFFFu, preset("a100")) == 0x40000001u);
  // Renormalised: partial 2 - 2^-23 + 2^-23 = 2 (leading bit now 2^1, 25-bit window to
  // 2^-23), then each 2^-24 truncates to 0 against it: 2 = 0x40000000.
  CHECK(dot(F16, a3, b3, 0x3FFFFFFFu, m) == 0x40000000u);
}

TEST_CASE("numerics_mma_zero_signs", "[numerics]") {
  const AccumulationModel models[] = {preset("a100"), preset("h100"), preset("ieee_sequential")};
  for (const AccumulationModel& m : models) {
    INFO(m.name);
    // All terms -0 (c = -0, product -0 * 1): -0, as IEEE's (-0) + (-0).
    CHECK(dot(F16, {0x8000}, {0x3C00}, 0x80000000u, m) == 0x80000000u);
    // One +0 among them: +0.
    CHECK(dot(F16, {0x8000, 0x0000}, {0x3C00, 0x3C00}, 0x80000000u, m) == 0x00000000u);
    CHECK(dot(F16, {0x8000}, {0x3C00}, 0x00000000u, m) == 0x00000000u);
    // Exact cancellation of nonzero terms (1 - 1): +0.
    CHECK(dot(F16, {0xBC00}, {0x3C00}, kOne32, m) == 0x00000000u);
    // k = 0: c itself.
    CHECK(dot(F16, {}, {}, 0x80000000u, m) == 0x80000000u);
    CHECK(dot(F16, {}, {}, 0x40490FDBu, m) == 0x40490FDBu);
  }
}

TEST_CASE("numerics_mma_tf32_and_fp8_inputs", "[numerics]") {
  // tf32: the low 13 bits are not operand bits: 0x3F801FFF is 1.0. 1 * 2 = 2 = 0x40000000.
  for (const std::string& name : accumulation_preset_names()) {
    const AccumulationModel m = accumulation_preset(name, FloatFormat::TF32);
    CHECK(dot(FloatFormat::TF32, {0x3F801FFFu}, {0x40000000u}, 0, m) == 0x40000000u);
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: fraction 2^14 + 2^3 = 0x4008 -> 0x3F804008.
    CHECK(dot(FloatFormat::TF32, {0x3F802000u}, {0x3F802000u}, 0, m) == 0x3F804008u);
  }
  // e4m3: 448 * 448 = 200704 = 1.53125 * 2^17; fraction .53125 = 2^-1 + 2^-5 -> bits 22 and 18
  // = 0x440000; biased 17 + 127 = 0x90 -> 0x48440000.
  // e5m2: 57344 * -2^-16 (0x81, negative smallest subnormal) = -0.875 = -1.75 * 2^-1:
  // biased 126, fraction 0x600000 -> 0xBF600000.
  const AccumulationModel h = preset("h100");
  CHECK(dot(FloatFormat::E4M3, {0x7E}, {0x7E}, 0, h) == 0x48440000u);
  CHECK(dot(FloatFormat::E5M2, {0x7B}, {0x81}, 0, h) == 0xBF600000u);
}
