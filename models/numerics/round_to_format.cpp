#include "models/numerics/round_to_format.h"

#include <algorithm>

namespace stcsim::numerics {
namespace {

// Bit positions of a format's fields. TF32 keeps its 10 mantissa bits at the top of fp32's
// 23-bit field, so its fields sit `field_shift` = 13 bits higher than its man_bits suggest.
struct Layout {
  FormatInfo info;
  int field_shift;
  int max_biased_exp;  // largest exponent field of a finite value
};

Layout layout(FloatFormat f) {
  const FormatInfo info = format_info(f);
  const int field_shift = f == FloatFormat::TF32 ? 13 : 0;
  // Formats with inf reserve the all-ones exponent; E4M3 uses it for finite values except
  // mantissa 111 (NaN), handled where the result is packed.
  const int all_ones = (1 << info.exp_bits) - 1;
  return {info, field_shift, info.has_inf ? all_ones - 1 : all_ones};
}

std::uint32_t pack(const Layout& l, bool negative, std::uint32_t biased, std::uint32_t field) {
  const std::uint32_t sign = negative ? 1u << (l.info.storage_bits - 1) : 0u;
  return sign | (biased << (l.info.man_bits + l.field_shift)) | (field << l.field_shift);
}

std::uint32_t overflow(FloatFormat f, const Layout& l, bool negative, Rounding r) {
  if (r == Rounding::NearestEven && l.info.has_inf) {
    return pack(l, negative, (1u << l.info.exp_bits) - 1, 0);
  }
  return max_finite(f, negative);
}

}  // namespace

int bit_width(Uint128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  const auto lo = static_cast<std::uint64_t>(x);
  if (hi != 0) return 128 - __builtin_clzll(hi);
  if (lo != 0) return 64 - __builtin_clzll(lo);
  return 0;
}

std::uint32_t round_to_format(FloatFormat f, bool negative, Uint128 magnitude, int exponent,
                              Rounding r) {
  const Layout l = layout(f);
  const int man_bits = l.info.man_bits;
  if (magnitude == 0) return pack(l, negative, 0, 0);

  // The result's last place: man_bits below the leading bit, but never below the subnormal
  // quantum 2^(emin - man_bits) (gradual underflow).
  const int lead = exponent + bit_width(magnitude) - 1;
  const int emin = 1 - l.info.bias;
  int quantum = std::max(lead, emin) - man_bits;

  Uint128 m;
  if (exponent >= quantum) {
    m = magnitude << (exponent - quantum);  // exact: fits in man_bits + 1 bits
  } else {
    const int shift = quantum - exponent;
    bool round_bit, sticky;
    if (shift > 128) {
      m = 0, round_bit = false, sticky = true;
    } else if (shift == 128) {
      m = 0, round_bit = (magnitude >> 127) != 0, sticky = (magnitude << 1) != 0;
    } else {
      m = magnitude >> shift;
      round_bit = ((magnitude >> (shift - 1)) & 1) != 0;
      sticky = (magnitude & ((Uint128(1) << (shift - 1)) - 1)) != 0;
    }
    if (r == Rounding::NearestEven && round_bit && (sticky || (m & 1) != 0)) ++m;
  }
  // Rounding up may carry into a new leading bit (m == 2^(man_bits+1)): renormalise, exactly.
  if ((m >> (man_bits + 1)) != 0) {
    m >>= 1;
    ++quantum;
  }
  if (m == 0) return pack(l, negative, 0, 0);

  std::uint32_t biased = 0;  // subnormal unless the hidden bit is set
  auto field = static_cast<std::uint32_t>(m);
  if ((m >> man_bits) != 0) {
    const int e = quantum + man_bits + l.info.bias;
    if (e > l.max_biased_exp) return overflow(f, l, negative, r);
    biased = static_cast<std::uint32_t>(e);
    field -= 1u << man_bits;
  }
  // E4M3's only pattern above 448 in its top binade is NaN (S.1111.111).
  if (f == FloatFormat::E4M3 && biased == 15 && field == 7) return overflow(f, l, negative, r);
  return pack(l, negative, biased, field);
}

}  // namespace stcsim::numerics
