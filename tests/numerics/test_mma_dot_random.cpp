// Every preset against the exact reference on random dot products, and ieee_sequential
// against a plain fp32 fmaf chain.
//
// Error bound asserted (derivation in docs/numerics.md). Let S = |c| + sum |a_i b_i| and
// U = ulp_fp32(S) = 2^(max(floor(log2 S), -126) - 23). For the round-toward-zero presets every
// partial sum stays <= S in magnitude (truncation and rounding toward zero only shrink), so in
// each block every term but the largest loses < 2^(E-23-x) <= 2^-x U to alignment, and the
// block rounding loses < U. Over k products in ceil(k/B) blocks:
//     |result - exact| < (k * 2^-x + ceil(k/B)) * U        a100 k=16: 10 U, k=32: 20 U
//                                                          h100 k=16:  5 U, k=32: 10 U
// ieee_sequential (exact alignment, k roundings to nearest of partials <= 2S): < k U.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <random>

#include "models/numerics/exact_reference.h"
#include "models/numerics/mma_dot.h"
#include "tests/numerics/numerics_test_util.h"

using namespace stcsim::numerics;
using stcsim::numerics::test::bits_float;
using stcsim::numerics::test::float_bits;

namespace {

constexpr int kTrials = 10000;

double error_bound_ulps(const AccumulationModel& m, int k) {
  const int blocks = (k + m.block_size - 1) / m.block_size;
  const double truncation =
      m.extra_bits >= kExactAlignmentBits ? 0.0 : k * std::ldexp(1.0, -m.extra_bits);
  return truncation + blocks;
}

// Random operands, in turn:
//   Similar:  exponents in [-3, 3], random signs (c in [-3, 6]);
//   Wide:     exponents over most of the format's range, subnormals included, random signs
//             (c in 2^-40..2^40): mixed magnitudes and deep cancellation;
//   SameSign: like Similar but all positive: no cancellation, so the error in ulps of the
//             result itself is bounded too (2 * bound + 1: the result is >= S / 2).
// About 5% zeros; a[0] and b[0] are never zero, so no dot product is all zeros.
enum class Mix { Similar, Wide, SameSign };

class OperandSource {
 public:
  OperandSource(FloatFormat f, std::uint64_t seed) : f_(f), rng_(seed) {}

  void fill(std::uint32_t* a, std::uint32_t* b, int k, std::uint32_t* c, Mix mix) {
    const bool wide = mix == Mix::Wide;
    auto [lo, hi] = wide ? wide_range() : std::pair{-3, 3};
    const bool positive = mix == Mix::SameSign;
    for (int i = 0; i < k; ++i) {
      a[i] = value(f_, lo, hi, i > 0, positive);
      b[i] = value(f_, lo, hi, i > 0, positive);
    }
    *c = wide ? value(FloatFormat::FP32, -40, 40, true, positive)
              : value(FloatFormat::FP32, -3, 6, true, positive);
  }

 private:
  std::pair<int, int> wide_range() const {
    switch (f_) {
      case FloatFormat::FP16:
        return {-25, 15};  // below -14: subnormals
      case FloatFormat::E4M3:
        return {-10, 8};
      case FloatFormat::E5M2:
        return {-17, 15};
      default:
        return {-60, 60};  // bf16, tf32: products stay inside fp32's range
    }
  }

  std::uint32_t value(FloatFormat f, int lo, int hi, bool may_be_zero, bool positive) {
    if (may_be_zero && std::uniform_int_distribution<int>(0, 19)(rng_) == 0) return 0;
    const std::uint32_t magnitude_mask = canonical_nan(f) | (f == FloatFormat::TF32 ? 0x1FFFu : 0u);
    for (;;) {
      const int e = std::uniform_int_distribution<int>(lo, hi)(rng_);
      const double frac = std::uniform_real_distribution<double>(1.0, 2.0)(rng_);
      const bool negative = !positive && std::uniform_int_distribution<int>(0, 1)(rng_) == 1;
      // Toward zero: never rounds up into an overflow or onto e4m3's NaN pattern.
      const std::uint32_t bits =
          encode(f, std::ldexp(negative ? -frac : frac, e), Rounding::TowardZero);
      if ((bits & magnitude_mask) != 0) return bits;  // below the format's range: draw again
    }
  }

  FloatFormat f_;
  std::mt19937_64 rng_;
};

// Maximum and mean of one error measure.
struct Stat {
  double max = 0, sum = 0;
  int n = 0;
  void add(double x) { max = std::max(max, x), sum += x, ++n; }
  double mean() const { return n == 0 ? 0 : sum / n; }
};

struct PresetStats {
  Stat err;             // |result - exact| / U, all trials
  Stat ulps;            // ulp_distance(result, correctly rounded), all trials
  Stat ulps_same_sign;  // the same on SameSign trials
};

// fp32 fmaf chain, c first then a0*b0, a1*b1, ...: the definition of ieee_sequential.
std::uint32_t fmaf_chain(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                         std::uint32_t c) {
  float acc = bits_float(c);
  for (int i = 0; i < k; ++i) {
    acc =
        std::fmaf(static_cast<float>(decode(in, a[i])), static_cast<float>(decode(in, b[i])), acc);
  }
  return float_bits(acc);
}

void run_format(FloatFormat f, std::vector<std::string> presets, std::uint64_t seed) {
  for (int k : {16, 32}) {
    OperandSource source(f, seed + static_cast<std::uint64_t>(k));
    std::vector<AccumulationModel> models;
    for (const std::string& n : presets) models.push_back(accumulation_preset(n, f));
    std::vector<PresetStats> stats(models.size());
    std::vector<std::uint32_t> a(k), b(k);
    std::uint32_t c = 0;
    int sequential_mismatches = 0;

    for (int t = 0; t < kTrials; ++t) {
      const Mix mix = static_cast<Mix>(t % 3);
      source.fill(a.data(), b.data(), k, &c, mix);
      const ExactValue exact = exact_dot(f, a.data(), b.data(), k, c);
      const ExactValue scale = exact_abs_dot(f, a.data(), b.data(), k, c);
      REQUIRE(scale.scaled != 0);
      const std::uint32_t rounded = round_to_fp32_nearest(exact);
      for (std::size_t p = 0; p < models.size(); ++p) {
        const std::uint32_t r = mma_dot(f, a.data(), b.data(), k, c, models[p]);
        const double err = error_in_ulps(exact, r, scale);
        const double bound = error_bound_ulps(models[p], k);
        if (!(err < bound)) {
          INFO(models[p].name << " " << to_string(f) << " k=" << k << " trial " << t << " result 0x"
                              << std::hex << r << " exact-rounded 0x" << rounded);
          REQUIRE(err < bound);
        }
        const std::uint64_t ulps = ulp_distance(r, rounded);
        stats[p].err.add(err);
        stats[p].ulps.add(static_cast<double>(ulps));
        if (mix == Mix::SameSign) {
          stats[p].ulps_same_sign.add(static_cast<double>(ulps));
          INFO(models[p].name << " " << to_string(f) << " k=" << k << " trial " << t);
          REQUIRE(static_cast<double>(ulps) <= 2 * bound + 1);
        }
        if (models[p].name == "ieee_sequential" && r != fmaf_chain(f, a.data(), b.data(), k, c)) {
          ++sequential_mismatches;
        }
      }
    }
    CHECK(sequential_mismatches == 0);
    for (std::size_t p = 0; p < models.size(); ++p) {
      const PresetStats& s = stats[p];
      std::printf(
          "numerics %-4s k=%2d %-15s bound %4.1f U | error/U max %6.3f mean %5.3f | ulps vs "
          "correctly rounded: all max %6.0f mean %6.3f, same-sign max %2.0f mean %5.3f\n",
          to_string(f), k, models[p].name.c_str(), error_bound_ulps(models[p], k), s.err.max,
          s.err.mean(), s.ulps.max, s.ulps.mean(), s.ulps_same_sign.max, s.ulps_same_sign.mean());
    }
  }
}

}  // namespace

TEST_CASE("numerics_presets_vs_exact_fp16", "[numerics]") {
  run_format(FloatFormat::FP16, {"a100", "h100", "ieee_sequential"}, 1);
}

TEST_CASE("numerics_presets_vs_exact_bf16", "[numerics]") {
  run_format(FloatFormat::BF16, {"a100", "h100", "ieee_sequential"}, 2);
}

TEST_CASE("numerics_presets_vs_exact_tf32", "[numerics]") {
  run_format(FloatFormat::TF32, {"a100", "h100", "ieee_sequential"}, 3);
}

TEST_CASE("numerics_presets_vs_exact_fp8", "[numerics]") {
  // The A100 has no fp8 MMA.
  run_format(FloatFormat::E4M3, {"h100", "ieee_sequential"}, 4);
  run_format(FloatFormat::E5M2, {"h100", "ieee_sequential"}, 5);
}

TEST_CASE("numerics_ieee_sequential_equals_fmaf_chain_on_edge_values", "[numerics]") {
  // Subnormals, ties, cancellation, overflow: fp16 patterns drawn from the whole code space
  // (NaN excluded, they compare by class below).
  std::mt19937_64 rng(99);
  std::uniform_int_distribution<std::uint32_t> any16(0, 0xFFFF), any32(0, 0xFFFFFFFF);
  const AccumulationModel m = accumulation_preset("ieee_sequential");
  for (int t = 0; t < 20000; ++t) {
    std::uint32_t a[8], b[8];
    for (int i = 0; i < 8; ++i) a[i] = any16(rng), b[i] = any16(rng);
    const std::uint32_t c = any32(rng);
    const std::uint32_t r = mma_dot(FloatFormat::FP16, a, b, 8, c, m);
    const std::uint32_t expected = fmaf_chain(FloatFormat::FP16, a, b, 8, c);
    if (std::isnan(bits_float(expected))) {
      REQUIRE(r == 0x7FFFFFFFu);
    } else {
      INFO("trial " << t);
      REQUIRE(r == expected);
    }
  }
}
