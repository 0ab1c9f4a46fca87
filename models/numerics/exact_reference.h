// The exact value of a dot product and its correctly rounded fp32 result: the yardstick the
// accumulation models' errors are measured against. Deliberately shares no rounding code with
// the models: the exact sum is a Boost.Multiprecision integer, and rounding to fp32 searches the
// ordered fp32 patterns with exact comparisons.
#pragma once
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>

#include "models/numerics/float_format.h"

namespace stcsim::numerics {

// An exact real number, scaled * 2^kLsbExponent. Every finite value of every format, every
// product of two (the smallest, two fp32 subnormals, is 2^-298) and every sum of those is an
// integer in these units.
struct ExactValue {
  static constexpr int kLsbExponent = -320;
  boost::multiprecision::cpp_int scaled;
};

// The exact value of a finite pattern; throws std::domain_error for NaN or inf.
ExactValue exact_value(FloatFormat f, std::uint32_t bits);

// c + sum_{i<k} a[i]*b[i], exactly (c is fp32 bits). Throws std::domain_error on NaN or inf.
ExactValue exact_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                     std::uint32_t c);
// |c| + sum |a[i]*b[i]|: the scale every accumulation error is bounded relative to.
ExactValue exact_abs_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                         std::uint32_t c);

// Rounded once to fp32, nearest even, subnormals kept, overflow to inf; zero gives +0.
std::uint32_t round_to_fp32_nearest(const ExactValue& v);
std::uint32_t exact_dot_fp32(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                             std::uint32_t c);

// How many fp32 values lie between x and y (steps along the ordered patterns; +0 and -0 are
// the same point, so ulp_distance(0x00000000, 0x80000000) == 0). Infinities count as one step
// past the largest finite. 0 if both are NaN; UINT64_MAX if exactly one is.
std::uint64_t ulp_distance(std::uint32_t x, std::uint32_t y);

// |decode(result) - exact| in units of ulp(scale) = 2^(max(floor(log2 |scale|), -126) - 23),
// the fp32 last place at |scale| (2^-149 for a zero scale). +inf for a NaN or inf result.
double error_in_ulps(const ExactValue& exact, std::uint32_t result, const ExactValue& scale);

}  // namespace stcsim::numerics
