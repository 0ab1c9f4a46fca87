// A floating-point value taken apart into an exact integer significand and a power of two,
// the form the datapath models compute on (every product of two stored values is exact in
// it: significands of at most 24 bits multiply into at most 48).
#pragma once
#include <cstdint>

#include "models/numerics/float_format.h"

namespace stcsim::numerics {

enum class FloatClass { Zero, Finite, Infinite, NaN };  // Finite means finite and nonzero

struct UnpackedFloat {
  FloatClass cls = FloatClass::Zero;
  bool negative = false;
  std::uint64_t significand = 0;  // Finite: value = (-1)^negative * significand * 2^exponent
  int exponent = 0;
  bool subnormal = false;  // a subnormal pattern of its format (for the flush options)
  // Finite: the exponent of the significand's unit bit, which is what an adder that aligns
  // on exponents sees: an operand's own exponent (the hidden bit's; for a subnormal, the
  // format's smallest), and for a product the sum of its factors' (the product of two
  // significands in [1, 2) lies in [1, 4), so its leading bit may sit one above it).
  int unit_exponent = 0;

  static UnpackedFloat zero(bool negative) { return {FloatClass::Zero, negative, 0, 0, false, 0}; }
};

// Takes a bit pattern of format f apart; the same bits decode() reads.
UnpackedFloat unpack(FloatFormat f, std::uint32_t bits);

// The exact product: NaN if either is NaN or for inf * 0; inf (sign = xor) if either is inf;
// a zero of sign xor if either is zero.
UnpackedFloat exact_product(const UnpackedFloat& a, const UnpackedFloat& b);

}  // namespace stcsim::numerics
