#include "models/numerics/float_format.h"

#include <cmath>
#include <limits>

#include "models/numerics/round_to_format.h"
#include "models/numerics/unpacked_float.h"

namespace stcsim::numerics {

FormatInfo format_info(FloatFormat f) {
  switch (f) {
    case FloatFormat::FP32:
      return {8, 23, 127, 32, true};
    case FloatFormat::TF32:
      return {8, 10, 127, 32, true};
    case FloatFormat::FP16:
      return {5, 10, 15, 16, true};
    case FloatFormat::BF16:
      return {8, 7, 127, 16, true};
    case FloatFormat::E4M3:
      return {4, 3, 7, 8, false};
    case FloatFormat::E5M2:
      return {5, 2, 15, 8, true};
  }
  return {8, 23, 127, 32, true};
}

const char* to_string(FloatFormat f) {
  switch (f) {
    case FloatFormat::FP32:
      return "fp32";
    case FloatFormat::TF32:
      return "tf32";
    case FloatFormat::FP16:
      return "fp16";
    case FloatFormat::BF16:
      return "bf16";
    case FloatFormat::E4M3:
      return "e4m3";
    case FloatFormat::E5M2:
      return "e5m2";
  }
  return "?";
}

std::uint32_t canonical_nan(FloatFormat f) {
  switch (f) {
    case FloatFormat::FP32:
      return 0x7FFFFFFFu;
    case FloatFormat::TF32:
      return 0x7FFFE000u;
    case FloatFormat::FP16:
      return 0x7FFFu;
    case FloatFormat::BF16:
      return 0x7FFFu;
    case FloatFormat::E4M3:
      return 0x7Fu;
    case FloatFormat::E5M2:
      return 0x7Fu;
  }
  return 0x7FFFFFFFu;
}

std::uint32_t max_finite(FloatFormat f, bool negative) {
  const FormatInfo i = format_info(f);
  const int field_shift = f == FloatFormat::TF32 ? 13 : 0;
  const std::uint32_t sign = negative ? 1u << (i.storage_bits - 1) : 0u;
  const std::uint32_t all_ones_exp = (1u << i.exp_bits) - 1;
  const std::uint32_t all_ones_man = (1u << i.man_bits) - 1;
  // IEEE-like: largest finite exponent field, all-ones mantissa. E4M3: top exponent field,
  // mantissa 110 (111 is NaN) = 1.75 * 2^8 = 448.
  const std::uint32_t biased = i.has_inf ? all_ones_exp - 1 : all_ones_exp;
  const std::uint32_t man = i.has_inf ? all_ones_man : all_ones_man - 1;
  return sign | (biased << (i.man_bits + field_shift)) | (man << field_shift);
}

bool is_nan(FloatFormat f, std::uint32_t bits) { return unpack(f, bits).cls == FloatClass::NaN; }

double decode(FloatFormat f, std::uint32_t bits) {
  const UnpackedFloat u = unpack(f, bits);
  switch (u.cls) {
    case FloatClass::NaN:
      return std::numeric_limits<double>::quiet_NaN();
    case FloatClass::Infinite:
      return u.negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
    case FloatClass::Zero:
      return u.negative ? -0.0 : 0.0;
    case FloatClass::Finite:
      break;
  }
  // Exact: at most 24 significant bits, exponents well inside double's range.
  const double m = std::ldexp(static_cast<double>(u.significand), u.exponent);
  return u.negative ? -m : m;
}

std::uint32_t encode(FloatFormat f, double v, Rounding r) {
  if (std::isnan(v)) return canonical_nan(f);
  const bool negative = std::signbit(v);
  if (std::isinf(v)) {
    const FormatInfo i = format_info(f);
    if (!i.has_inf) return canonical_nan(f);
    const int field_shift = f == FloatFormat::TF32 ? 13 : 0;
    const std::uint32_t sign = negative ? 1u << (i.storage_bits - 1) : 0u;
    return sign | (((1u << i.exp_bits) - 1) << (i.man_bits + field_shift));
  }
  // v = frac * 2^e with 0.5 <= |frac| < 1; frac * 2^53 is an integer (also for subnormals).
  int e = 0;
  const double frac = std::frexp(std::fabs(v), &e);
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(frac, 53));
  return round_to_format(f, negative, mantissa, e - 53, r);
}

}  // namespace stcsim::numerics
