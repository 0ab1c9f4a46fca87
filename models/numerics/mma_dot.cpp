#include "models/numerics/mma_dot.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "models/numerics/fused_block_sum.h"
#include "models/numerics/unpacked_float.h"

namespace stcsim::numerics {

std::uint32_t mma_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                      std::uint32_t c, const AccumulationModel& m) {
  validate(m);
  if (k < 0) throw std::invalid_argument("mma_dot: k must be >= 0");

  auto load = [&m](FloatFormat f, std::uint32_t bits) {
    UnpackedFloat u = unpack(f, bits);
    if (m.flush_subnormal_inputs && u.subnormal) u = UnpackedFloat::zero(u.negative);
    return u;
  };
  const UnpackedFloat c_in = load(FloatFormat::FP32, c);

  std::vector<UnpackedFloat> terms;
  terms.reserve(static_cast<std::size_t>(std::min(k, m.block_size)) + 1);
  // The accumulator register between blocks: an fp32 value, unpacked again for the next block.
  bool have_acc = m.c_in_first_block;
  UnpackedFloat acc = c_in;
  std::uint32_t result = 0;

  for (int start = 0; start < k; start += m.block_size) {
    terms.clear();
    if (have_acc) terms.push_back(acc);
    const int end = std::min(k, start + m.block_size);
    for (int i = start; i < end; ++i) {
      terms.push_back(exact_product(load(in, a[i]), load(in, b[i])));
    }
    result = fused_block_sum(terms, m);
    acc = unpack(FloatFormat::FP32, result);
    have_acc = true;
  }

  if (!m.c_in_first_block || k == 0) {
    terms.clear();
    if (k > 0) terms.push_back(acc);
    terms.push_back(c_in);
    result = fused_block_sum(terms, m);
  }
  return result;
}

std::int32_t mma_dot_int(const std::int32_t* a, const std::int32_t* b, int k, std::int32_t c) {
  // Unsigned arithmetic wraps modulo 2^32 by definition; the final conversion to int32 is
  // two's complement (guaranteed since C++20, and what GCC/Clang do in C++17).
  auto sum = static_cast<std::uint32_t>(c);
  for (int i = 0; i < k; ++i) {
    const std::int64_t p = static_cast<std::int64_t>(a[i]) * b[i];
    sum += static_cast<std::uint32_t>(static_cast<std::uint64_t>(p));
  }
  return static_cast<std::int32_t>(sum);
}

}  // namespace stcsim::numerics
