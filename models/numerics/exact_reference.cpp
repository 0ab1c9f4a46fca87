#include "models/numerics/exact_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace stcsim::numerics {
namespace {

using boost::multiprecision::cpp_int;
constexpr int kShift = -ExactValue::kLsbExponent;  // 2^kShift units per 1.0

// A finite double as an exact scaled integer (its 53-bit significand shifted into place).
cpp_int scaled_from_double(double v) {
  int e = 0;
  const double frac = std::frexp(std::fabs(v), &e);
  cpp_int r = static_cast<std::uint64_t>(std::ldexp(frac, 53));
  r <<= (e - 53 + kShift);  // >= 0: callers pass fp32-representable values (>= 2^-149)
  return std::signbit(v) ? cpp_int(-r) : r;
}

// The value of a non-negative finite fp32 pattern, read from its fields directly.
cpp_int fp32_pattern_value(std::uint32_t p) {
  const std::uint32_t biased = p >> 23;
  const std::uint32_t field = p & 0x7FFFFFu;
  const std::uint32_t sig = biased == 0 ? field : field | 0x800000u;
  const int exp = biased == 0 ? -149 : static_cast<int>(biased) - 150;
  return cpp_int(sig) << (exp + kShift);
}

ExactValue product(FloatFormat in, std::uint32_t a, std::uint32_t b) {
  const ExactValue x = exact_value(in, a);
  const ExactValue y = exact_value(in, b);
  // x*y carries 2^(2*kShift) units per 1.0; the division by 2^kShift is exact because every
  // product is a multiple of 2^-298 > 2^-320.
  cpp_int p = abs(x.scaled);
  p *= abs(y.scaled);
  p >>= kShift;
  if ((x.scaled < 0) != (y.scaled < 0)) p = -p;
  return {p};
}

}  // namespace

ExactValue exact_value(FloatFormat f, std::uint32_t bits) {
  const double v = decode(f, bits);
  if (!std::isfinite(v)) {
    throw std::domain_error(std::string("exact_value: non-finite ") + to_string(f) + " input");
  }
  return {scaled_from_double(v)};
}

ExactValue exact_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                     std::uint32_t c) {
  ExactValue sum = exact_value(FloatFormat::FP32, c);
  for (int i = 0; i < k; ++i) sum.scaled += product(in, a[i], b[i]).scaled;
  return sum;
}

ExactValue exact_abs_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                         std::uint32_t c) {
  ExactValue sum{abs(exact_value(FloatFormat::FP32, c).scaled)};
  for (int i = 0; i < k; ++i) sum.scaled += abs(product(in, a[i], b[i]).scaled);
  return sum;
}

std::uint32_t round_to_fp32_nearest(const ExactValue& v) {
  if (v.scaled == 0) return 0;
  const std::uint32_t sign = v.scaled < 0 ? 0x80000000u : 0u;
  const cpp_int x = abs(v.scaled);
  constexpr std::uint32_t kMaxFinite = 0x7F7FFFFFu;

  if (fp32_pattern_value(kMaxFinite) <= x) {
    // Halfway between the largest finite (odd significand) and 2^128 rounds to the even
    // neighbour 2^128, which is out of range: inf.
    const cpp_int halfway = (cpp_int(1) << (128 + kShift)) - (cpp_int(1) << (103 + kShift));
    return sign | (x >= halfway ? 0x7F800000u : kMaxFinite);
  }
  // Non-negative fp32 patterns are ordered like their values: find the last one <= x.
  std::uint32_t lo = 0, hi = kMaxFinite;  // value(lo) <= x < value(hi)
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (fp32_pattern_value(mid) <= x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const cpp_int twice = 2 * x;
  const cpp_int sum = fp32_pattern_value(lo) + fp32_pattern_value(hi);
  std::uint32_t r;
  if (twice < sum) {
    r = lo;
  } else if (twice > sum) {
    r = hi;
  } else {
    r = (lo & 1) == 0 ? lo : hi;  // tie: the even significand
  }
  return sign | r;
}

std::uint32_t exact_dot_fp32(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                             std::uint32_t c) {
  return round_to_fp32_nearest(exact_dot(in, a, b, k, c));
}

std::uint64_t ulp_distance(std::uint32_t x, std::uint32_t y) {
  const bool x_nan = is_nan(FloatFormat::FP32, x);
  const bool y_nan = is_nan(FloatFormat::FP32, y);
  if (x_nan || y_nan) return x_nan && y_nan ? 0 : std::numeric_limits<std::uint64_t>::max();
  // Map patterns onto a line: positives as they are, negatives mirrored below zero.
  auto ordinal = [](std::uint32_t p) -> std::int64_t {
    const std::int64_t magnitude = p & 0x7FFFFFFFu;
    return (p >> 31) != 0 ? -magnitude : magnitude;
  };
  const std::int64_t d = ordinal(x) - ordinal(y);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

double error_in_ulps(const ExactValue& exact, std::uint32_t result, const ExactValue& scale) {
  const double r = decode(FloatFormat::FP32, result);
  if (!std::isfinite(r)) return std::numeric_limits<double>::infinity();
  const cpp_int err = abs(scaled_from_double(r) - exact.scaled);
  int ulp_exp = -149;
  if (scale.scaled != 0) {
    const int lead = static_cast<int>(msb(abs(scale.scaled))) + ExactValue::kLsbExponent;
    ulp_exp = std::max(lead, -126) - 23;
  }
  // err is an integer in 2^kLsbExponent units; ulp(scale) is 2^ulp_exp.
  return std::ldexp(err.convert_to<double>(), ExactValue::kLsbExponent - ulp_exp);
}

}  // namespace stcsim::numerics
