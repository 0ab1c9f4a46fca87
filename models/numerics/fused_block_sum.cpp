#include "models/numerics/fused_block_sum.h"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <climits>

#include "models/numerics/round_to_format.h"

namespace stcsim::numerics {
namespace {

using boost::multiprecision::cpp_int;

constexpr std::uint32_t kNaN = 0x7FFFFFFFu;
constexpr std::uint32_t kPosInf = 0x7F800000u;
constexpr std::uint32_t kNegInf = 0xFF800000u;
constexpr std::uint32_t kNegZero = 0x80000000u;

// An exact finite value (-1)^negative * magnitude * 2^exponent; magnitude 0 means zero.
struct Wide {
  bool negative = false;
  Uint128 magnitude = 0;
  int exponent = 0;
  int unit_exponent = 0;  // a term's (UnpackedFloat::unit_exponent)
};

Wide to_wide(const UnpackedFloat& u) {
  if (u.cls != FloatClass::Finite) return {};
  return {u.negative, u.significand, u.exponent, u.unit_exponent};
}

// The highest bit of the alignment window this term asks for: its leading one bit, or with
// align_on_exponents the upper of the two integer bits above its exponent. (The
// renormalising chain's partial sums have no exponent of their own; validate() keeps that
// chain to leading-bit alignment.)
int window_top(const Wide& t, bool align_on_exponents) {
  const int lead = t.exponent + bit_width(t.magnitude) - 1;
  return align_on_exponents ? std::max(lead, t.unit_exponent + 1) : lead;
}

cpp_int to_cpp_int(Uint128 x) {
  cpp_int r = static_cast<std::uint64_t>(x >> 64);
  r <<= 64;
  r |= static_cast<std::uint64_t>(x);
  return r;
}

// Steps 3 and 4 of the header: the exact sum of the n terms get(i) after truncating each to
// the window of window_bits bits below the leading bit. Needs at least one nonzero term.
template <class Get>
Wide align_and_sum(int n, Get get, long long window_bits, bool align_on_exponents) {
  int lead_max = INT_MIN;
  int exp_min = INT_MAX;
  for (int i = 0; i < n; ++i) {
    const Wide t = get(i);
    if (t.magnitude == 0) continue;
    lead_max = std::max(lead_max, window_top(t, align_on_exponents));
    exp_min = std::min(exp_min, t.exponent);
  }
  // When the window reaches below every term's last bit nothing is truncated; starting the
  // integer sum at the lowest bit present keeps it as narrow as possible.
  const long long window_lsb = static_cast<long long>(lead_max) - window_bits + 1;
  const int lsb = static_cast<int>(std::max<long long>(window_lsb, exp_min));
  const int width = lead_max - lsb + 1;  // bits of the widest aligned term

  auto aligned = [lsb](const Wide& t) -> Uint128 {  // truncation toward zero
    if (t.exponent >= lsb) return t.magnitude << (t.exponent - lsb);
    const int shift = lsb - t.exponent;
    return shift >= 128 ? 0 : t.magnitude >> shift;
  };

  if (width + bit_width(static_cast<Uint128>(n)) + 1 <= 127) {  // every preset's path
    __int128 sum = 0;
    for (int i = 0; i < n; ++i) {
      const Wide t = get(i);
      if (t.magnitude == 0) continue;
      const auto a = static_cast<__int128>(aligned(t));
      sum += t.negative ? -a : a;
    }
    const bool negative = sum < 0;
    return {negative, static_cast<Uint128>(negative ? -sum : sum), lsb};
  }

  // Wide windows (exact alignment across a large exponent span): an arbitrary-precision sum.
  cpp_int sum = 0;
  for (int i = 0; i < n; ++i) {
    const Wide t = get(i);
    if (t.magnitude == 0) continue;
    cpp_int a = to_cpp_int(t.magnitude);
    if (t.exponent >= lsb) {
      a <<= (t.exponent - lsb);
    } else {
      a >>= (lsb - t.exponent);
    }
    if (t.negative) {
      sum -= a;
    } else {
      sum += a;
    }
  }
  Wide r{sum < 0, 0, lsb};
  if (r.negative) sum = -sum;
  // Keep the top 120 bits and fold the rest into a sticky last bit: rounding to fp32 (24 bits)
  // from 120 bits with a sticky bit gives the same result as from the full sum.
  if (sum != 0) {
    const int bits = static_cast<int>(boost::multiprecision::msb(sum)) + 1;
    if (bits > 120) {
      const int shift = bits - 120;
      const bool sticky = static_cast<int>(boost::multiprecision::lsb(sum)) < shift;
      sum >>= shift;
      r.exponent += shift;
      if (sticky) sum |= 1;
    }
  }
  const cpp_int mask64 = (cpp_int(1) << 64) - 1;
  r.magnitude = (Uint128(static_cast<std::uint64_t>(sum >> 64)) << 64) |
                static_cast<std::uint64_t>(sum & mask64);
  return r;
}

// Rounds to p significant bits with an unbounded exponent (the renormalised partial sum).
Wide round_to_bits(Wide v, int p, Rounding r) {
  const int bits = bit_width(v.magnitude);
  if (bits <= p) return v;
  int shift = bits - p;
  Uint128 m = v.magnitude >> shift;
  const bool round_bit = ((v.magnitude >> (shift - 1)) & 1) != 0;
  const bool sticky = (v.magnitude & ((Uint128(1) << (shift - 1)) - 1)) != 0;
  if (r == Rounding::NearestEven && round_bit && (sticky || (m & 1) != 0)) ++m;
  if (bit_width(m) > p) {  // carried into a new bit: m == 2^p, so this is exact
    m >>= 1;
    ++shift;
  }
  return {v.negative, m, v.exponent + shift};
}

std::uint32_t round_to_fp32(const Wide& w, Rounding r) {
  // An exact zero sum of nonzero terms is +0 (step 5).
  if (w.magnitude == 0) return 0;
  return round_to_format(FloatFormat::FP32, w.negative, w.magnitude, w.exponent, r);
}

}  // namespace

std::uint32_t fused_block_sum(const std::vector<UnpackedFloat>& terms, const AccumulationModel& m) {
  bool pos_inf = false, neg_inf = false, any_finite = false, all_negative_zero = true;
  for (const UnpackedFloat& t : terms) {
    switch (t.cls) {
      case FloatClass::NaN:
        return kNaN;
      case FloatClass::Infinite:
        (t.negative ? neg_inf : pos_inf) = true;
        break;
      case FloatClass::Finite:
        any_finite = true;
        break;
      case FloatClass::Zero:
        break;
    }
    if (t.cls != FloatClass::Zero || !t.negative) all_negative_zero = false;
  }
  if (pos_inf && neg_inf) return kNaN;
  if (pos_inf) return kPosInf;
  if (neg_inf) return kNegInf;
  if (!any_finite) return !terms.empty() && all_negative_zero ? kNegZero : 0u;

  // Leading-bit alignment keeps 24 + extra bits from the top; exponent alignment two
  // integer bits and 23 + extra fraction bits.
  const long long window_bits = (m.align_on_exponents ? 25LL : 24LL) + m.extra_bits;
  const int n = static_cast<int>(terms.size());
  Wide sum;
  if (!m.normalize_within_block) {
    sum = align_and_sum(
        n, [&](int i) { return to_wide(terms[i]); }, window_bits, m.align_on_exponents);
  } else {
    const int p = static_cast<int>(window_bits);
    for (const UnpackedFloat& t : terms) {
      const Wide w = to_wide(t);
      if (w.magnitude == 0) continue;
      if (sum.magnitude == 0) {
        sum = round_to_bits(w, p, m.rounding);
        continue;
      }
      const Wide pair[2] = {sum, w};
      sum = round_to_bits(align_and_sum(
                              2, [&](int i) { return pair[i]; }, window_bits, m.align_on_exponents),
                          p, m.rounding);
    }
  }
  if (m.overflow_to_infinity && sum.magnitude != 0 &&
      sum.exponent + bit_width(sum.magnitude) - 1 >= 128)
    return sum.negative ? kNegInf : kPosInf;
  std::uint32_t bits = round_to_fp32(sum, m.rounding);
  const bool subnormal = (bits & 0x7F800000u) == 0 && (bits & 0x007FFFFFu) != 0;
  if (m.flush_subnormal_output && subnormal) bits &= kNegZero;
  return bits;
}

}  // namespace stcsim::numerics
