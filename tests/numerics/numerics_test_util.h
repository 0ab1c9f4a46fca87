// Small helpers shared by the numerics tests.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "models/numerics/accumulation_model.h"
#include "models/numerics/float_format.h"
#include "models/numerics/mma_dot.h"

namespace stcsim::numerics::test {

inline std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline float bits_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// mma_dot over vectors, for readable hand-derived cases.
inline std::uint32_t dot(FloatFormat in, const std::vector<std::uint32_t>& a,
                         const std::vector<std::uint32_t>& b, std::uint32_t c,
                         const AccumulationModel& m) {
  return mma_dot(in, a.data(), b.data(), static_cast<int>(a.size()), c, m);
}

inline AccumulationModel preset(const std::string& name) { return accumulation_preset(name); }

// A preset with a different block rounding, to show what the rounding alone changes.
inline AccumulationModel with_rounding(AccumulationModel m, Rounding r) {
  m.rounding = r;
  m.name += r == Rounding::NearestEven ? "+rne" : "+rtz";
  return m;
}

}  // namespace stcsim::numerics::test
