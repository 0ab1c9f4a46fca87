#include "validation/bitcapture/operand_gen.h"

#include <cmath>

#include "models/numerics/float_format.h"

namespace stcsim::validation::bits {

using numerics::FloatFormat;

const char* to_string(Category c) {
  switch (c) {
    case Category::Exact:
      return "exact";
    case Category::Random:
      return "random";
    case Category::Cancellation:
      return "cancellation";
    case Category::Alignment:
      return "alignment";
    case Category::Subnormal:
      return "subnormal";
    case Category::InfNan:
      return "infnan";
  }
  return "?";
}

namespace {

struct Gen {
  FloatFormat in;
  std::mt19937_64& rng;

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  bool chance(int one_in) { return uniform(0, one_in - 1) == 0; }
  // +-(1 + random significand) * 2^e, rounded once into `f`.
  std::uint32_t value(FloatFormat f, int e_lo, int e_hi) {
    const double sig = 1.0 + std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    const double v = std::ldexp(chance(2) ? -sig : sig, uniform(e_lo, e_hi));
    return numerics::encode(f, v, numerics::Rounding::NearestEven);
  }
  std::uint32_t input(int e_lo, int e_hi) { return value(in, e_lo, e_hi); }
  std::uint32_t acc(int e_lo, int e_hi) { return value(FloatFormat::FP32, e_lo, e_hi); }
  std::uint32_t integer(FloatFormat f, int lo, int hi) {
    return numerics::encode(f, double(uniform(lo, hi)), numerics::Rounding::NearestEven);
  }
  // A subnormal of the input format: exponent field 0, random nonzero significand.
  std::uint32_t input_subnormal() {
    const int man = numerics::format_info(in).man_bits;
    const std::uint32_t m = std::uint32_t(uniform(1, (1 << man) - 1));
    return (chance(2) ? 1u << 15 : 0u) | m;
  }
  std::uint32_t acc_subnormal() {
    const std::uint32_t m = std::uint32_t(uniform(1, (1 << 23) - 1));
    return (chance(2) ? 0x80000000u : 0u) | m;
  }
  std::uint32_t negate(std::uint32_t bits) const { return bits ^ 0x8000u; }
  // Inf, -Inf, a quiet NaN, a NaN with a payload (signalling pattern), or zero.
  std::uint32_t input_special() {
    const bool h = in == FloatFormat::FP16;
    switch (uniform(0, 4)) {
      case 0:
        return h ? 0x7C00u : 0x7F80u;
      case 1:
        return h ? 0xFC00u : 0xFF80u;
      case 2:
        return h ? 0x7E00u : 0x7FC0u;
      case 3:
        return h ? 0x7C01u : 0x7F81u;
      default:
        return 0;
    }
  }
  std::uint32_t acc_special() {
    switch (uniform(0, 2)) {
      case 0:
        return 0x7F800000u;
      case 1:
        return 0xFF800000u;
      default:
        return 0x7FC00000u;
    }
  }
};

// Zeroes all but two of every four consecutive k of each row of a (m x k): the kept pair
// is one of the six, or only {0,1}/{2,3} when pairs must survive (cancellation), or one
// holding k `must` (alignment).
void prune_24(std::vector<std::uint32_t>& a, int m, int k, bool pairs_only, int must, Gen& gen) {
  static const int kPairs[6][2] = {{0, 1}, {2, 3}, {0, 2}, {0, 3}, {1, 2}, {1, 3}};
  for (int r = 0; r < m; ++r)
    for (int g = 0; g < k / 4; ++g) {
      int p = gen.uniform(0, pairs_only ? 1 : 5);
      if (must >= 0 && must / 4 == g)
        while (kPairs[p][0] != must % 4 && kPairs[p][1] != must % 4) p = gen.uniform(0, 5);
      for (int i = 0; i < 4; ++i)
        if (i != kPairs[p][0] && i != kPairs[p][1]) a[std::size_t(r) * k + 4 * g + i] = 0;
    }
}

}  // namespace

LogicalOperands make_operands(const GroupSpec& g, Category c, std::mt19937_64& rng) {
  const int m = g.m(), n = g.n, k = g.k();
  Gen gen{functional::float_format(g.type), rng};
  const bool bf16 = g.type == functional::MmaType::BF16;
  LogicalOperands ops;
  ops.a.resize(std::size_t(m) * k);
  ops.b.resize(std::size_t(k) * n);
  ops.c.resize(std::size_t(m) * n);
  auto A = [&](int i, int kk) -> std::uint32_t& { return ops.a[std::size_t(i) * k + kk]; };
  auto B = [&](int kk, int j) -> std::uint32_t& { return ops.b[std::size_t(kk) * n + j]; };
  int must = -1;
  switch (c) {
    case Category::Exact:
      for (auto& v : ops.a) v = gen.integer(gen.in, -4, 4);
      for (auto& v : ops.b) v = gen.integer(gen.in, -4, 4);
      for (auto& v : ops.c) v = gen.integer(FloatFormat::FP32, -64, 64);
      break;
    case Category::Random:
      for (auto& v : ops.a) v = gen.input(-6, 6);
      for (auto& v : ops.b) v = gen.input(-6, 6);
      for (auto& v : ops.c) v = gen.acc(-4, 8);
      break;
    case Category::Cancellation:
    case Category::Subnormal: {
      // Pairs of products that cancel exactly, with small or subnormal remainders.
      const bool sub = c == Category::Subnormal;
      const int big_lo = sub ? (bf16 ? -66 : -14) : 4, big_hi = sub ? (bf16 ? -60 : -10) : 8;
      for (int kk = 0; kk + 1 < k; kk += 2) {
        for (int j = 0; j < n; ++j) {
          B(kk, j) = sub && gen.chance(3) ? gen.input_subnormal()
                                          : gen.input(sub ? big_lo : -2, sub ? big_hi : 2);
          B(kk + 1, j) = B(kk, j);
        }
        for (int i = 0; i < m; ++i) {
          A(i, kk) = sub && gen.chance(3) ? gen.input_subnormal() : gen.input(big_lo, big_hi);
          A(i, kk + 1) = gen.chance(4) ? (sub ? gen.input_subnormal() : gen.input(-10, -6))
                                       : gen.negate(A(i, kk));
        }
      }
      for (auto& v : ops.c)
        v = sub ? (gen.chance(2) ? gen.acc_subnormal() : gen.acc(-126, -120))
                : (gen.chance(2) ? gen.acc(8, 14) : gen.acc(-12, -4));
      break;
    }
    case Category::Alignment:
      must = gen.uniform(0, k - 1);
      for (int kk = 0; kk < k; ++kk) {
        for (int i = 0; i < m; ++i) A(i, kk) = kk == must ? gen.input(5, 7) : gen.input(-5, -3);
        for (int j = 0; j < n; ++j) B(kk, j) = kk == must ? gen.input(5, 7) : gen.input(-5, -3);
      }
      for (auto& v : ops.c) v = gen.acc(-2, 12);
      break;
    case Category::InfNan:
      for (auto& v : ops.a)
        v = gen.chance(12)          ? gen.input_special()
            : bf16 && gen.chance(8) ? gen.input(60, 66)
                                    : gen.input(-6, 6);
      for (auto& v : ops.b)
        v = gen.chance(12)          ? gen.input_special()
            : bf16 && gen.chance(8) ? gen.input(60, 66)
                                    : gen.input(-6, 6);
      for (auto& v : ops.c) v = gen.chance(16) ? gen.acc_special() : gen.acc(-4, 8);
      break;
  }
  if (g.sparse())
    prune_24(ops.a, m, k, c == Category::Cancellation || c == Category::Subnormal, must, gen);
  return ops;
}

}  // namespace stcsim::validation::bits
