// Random MMA operands for the functional tests: finite, nonzero, mixed signs and
// magnitudes (f16 includes subnormals), as element bit patterns.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "models/functional/mma_types.h"

namespace stcsim::functional::testing {

inline std::uint32_t random_element(std::mt19937& rng, MmaType t) {
  const std::uint32_t sign = rng() & 1;
  switch (t) {
    case MmaType::F16: {
      // Exponent field 5..24 (2^-10 .. 2^9), one in ten subnormal.
      const std::uint32_t man = rng() & 0x3FF;
      if (rng() % 10 == 0) return sign << 15 | (man ? man : 1);
      return sign << 15 | (5 + rng() % 20) << 10 | man;
    }
    case MmaType::BF16:  // 2^-27 .. 2^27
      return sign << 15 | (100 + rng() % 55) << 7 | (rng() & 0x7F);
    case MmaType::TF32:  // fp32 layout; the low 13 bits are random (the MMA ignores them)
      return sign << 31 | (100 + rng() % 55) << 23 | (rng() & 0x7FFFFF);
    case MmaType::S8: {
      std::uint32_t v;
      do v = rng() & 0xFF;
      while (v == 0);
      return v;
    }
  }
  return 1;
}

// An accumulator element: f32 in 2^-17 .. 2^23 with either sign, or any nonzero s32.
inline std::uint32_t random_accumulator(std::mt19937& rng, MmaType t) {
  if (t == MmaType::S8) {
    std::uint32_t v;
    do v = rng() >> (rng() % 16);  // mixed magnitudes
    while (v == 0);
    return rng() & 1 ? v : std::uint32_t(-std::int64_t(v));
  }
  return (rng() & 1) << 31 | (110 + rng() % 40) << 23 | (rng() & 0x7FFFFF);
}

inline std::vector<std::uint32_t> random_matrix(int rows, int cols,
                                                const std::function<std::uint32_t()>& gen) {
  std::vector<std::uint32_t> m(std::size_t(rows) * cols);
  for (auto& v : m) v = gen();
  return m;
}

}  // namespace stcsim::functional::testing
