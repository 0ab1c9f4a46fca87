#include "models/numerics/unpacked_float.h"

namespace stcsim::numerics {

UnpackedFloat unpack(FloatFormat f, std::uint32_t bits) {
  const FormatInfo i = format_info(f);
  if (i.storage_bits < 32) bits &= (1u << i.storage_bits) - 1;
  // TF32 is read from the fp32 layout: drop the 13 mantissa bits it does not have.
  const int field_shift = f == FloatFormat::TF32 ? 13 : 0;
  const bool negative = (bits >> (i.storage_bits - 1)) != 0;
  const std::uint32_t all_ones_exp = (1u << i.exp_bits) - 1;
  const std::uint32_t biased = (bits >> (i.man_bits + field_shift)) & all_ones_exp;
  const std::uint32_t field = (bits >> field_shift) & ((1u << i.man_bits) - 1);

  UnpackedFloat u = UnpackedFloat::zero(negative);
  if (i.has_inf && biased == all_ones_exp) {
    u.cls = field == 0 ? FloatClass::Infinite : FloatClass::NaN;
    return u;
  }
  if (!i.has_inf && biased == all_ones_exp && field == (1u << i.man_bits) - 1) {
    u.cls = FloatClass::NaN;  // E4M3: S.1111.111 is its only NaN; S.1111.xxx else are finite
    return u;
  }
  const int emin = 1 - i.bias;
  if (biased == 0) {
    if (field == 0) return u;
    u.cls = FloatClass::Finite;
    u.significand = field;
    u.exponent = emin - i.man_bits;
    u.subnormal = true;
    u.unit_exponent = emin;
    return u;
  }
  u.cls = FloatClass::Finite;
  u.significand = field | (1u << i.man_bits);
  u.exponent = static_cast<int>(biased) - i.bias - i.man_bits;
  u.unit_exponent = static_cast<int>(biased) - i.bias;
  return u;
}

UnpackedFloat exact_product(const UnpackedFloat& a, const UnpackedFloat& b) {
  const bool negative = a.negative != b.negative;
  UnpackedFloat p = UnpackedFloat::zero(negative);
  if (a.cls == FloatClass::NaN || b.cls == FloatClass::NaN) {
    p.cls = FloatClass::NaN;
  } else if (a.cls == FloatClass::Infinite || b.cls == FloatClass::Infinite) {
    const bool times_zero = a.cls == FloatClass::Zero || b.cls == FloatClass::Zero;
    p.cls = times_zero ? FloatClass::NaN : FloatClass::Infinite;
  } else if (a.cls == FloatClass::Finite && b.cls == FloatClass::Finite) {
    p.cls = FloatClass::Finite;
    p.significand = a.significand * b.significand;  // <= 48 bits: exact
    p.exponent = a.exponent + b.exponent;
    p.unit_exponent = a.unit_exponent + b.unit_exponent;
  }
  return p;
}

}  // namespace stcsim::numerics
