// Operands of the captured instructions, by category. Each category aims at a place
// where the published accumulation models (models/numerics/accumulation_model.h) differ,
// so the capture can tell them apart:
//   exact         small integers: every sum exact, every model agrees. A mismatch here is
//                 a layout error (ours or the capture's), not numerics.
//   random        random signs, exponents in [-6, 6], random significands; random C.
//   cancellation  products in pairs that cancel exactly (a[k+1] = -a[k], b[k+1] = b[k]),
//                 a large C cancelled by them, small remainders: the result is what the
//                 alignment truncated.
//   alignment     one product (and C) near 2^12 with small products near 2^-8: how many
//                 bits of the small ones survive alignment to the largest exponent (block
//                 size, extra bits, rounding).
//   subnormal     subnormal inputs, products and C in the fp32 subnormal range (bf16),
//                 subnormal C (f16): flushing of inputs and outputs.
//   infnan        some +-Inf, NaN (quiet, and a payload), zeros beside Inf (Inf * 0), Inf
//                 and NaN in C; for bf16 products that overflow fp32.
#pragma once
#include <cstdint>
#include <random>

#include "validation/bitcapture/instruction_layout.h"

namespace stcsim::validation::bits {

enum class Category { Exact, Random, Cancellation, Alignment, Subnormal, InfNan };
inline constexpr int kCategories = 6;
const char* to_string(Category c);

// A (m x k; 2:4 along k when g.sparse(), zeros at the pruned places), B (k x n), C.
LogicalOperands make_operands(const GroupSpec& g, Category c, std::mt19937_64& rng);

}  // namespace stcsim::validation::bits
