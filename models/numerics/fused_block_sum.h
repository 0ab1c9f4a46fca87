// One fused block of an AccumulationModel: the accumulator (when it joins the block) and the
// block's exact products summed by one multi-operand adder, then rounded once into the fp32
// accumulator. The semantics, stated once here and in docs/numerics.md:
// 1. NaN anywhere in the block -> canonical NaN 0x7FFFFFFF (NaN inputs and inf * 0 arrive as
//    NaN terms from exact_product). Infinities of both signs -> NaN; of one sign -> that
//    infinity. These never reach the adder.
// 2. Zero terms are ignored (they have no exponent to align to). If every term is zero the
//    result is -0 when all of them are -0, else +0 (IEEE 754's rule for x + y generalised).
// 3. E = the exponent of the leading bit of the largest nonzero term. Each term is truncated
//    toward zero (its magnitude, i.e. sign-magnitude alignment) to a multiple of
//    2^(E - 23 - extra_bits): a window of 24 + extra_bits bits counting the leading bit, so
//    extra_bits = 0 is "fp32 precision, no guard bits" (Fasi et al.'s V100). The largest term
//    always fits its window; smaller ones lose their low bits.
//    align_on_exponents: E is instead one above the largest term's unit_exponent (two integer
//    bits over the largest exponent, ea + eb for a product) and the window holds
//    25 + extra_bits bits from E down: 23 + extra_bits fraction bits below that exponent.
// 4. The truncated terms are summed exactly: no rounding or renormalisation between additions,
//    every carry kept (the adder is as wide as it needs to be).
// 5. The exact sum is rounded once to fp32 with model.rounding (subnormals kept, overflow as
//    encode()). An exact zero sum of nonzero terms is +0; a nonzero sum that underflows to
//    zero keeps its sign.
//    overflow_to_infinity: an exact sum of magnitude >= 2^128 gives an infinity of its sign
//    before any rounding (under round toward zero too).
// 6. flush_subnormal_output: a subnormal result becomes a zero of its sign (after rounding).
// normalize_within_block = true replaces 3-5 by a chain over the nonzero terms in order:
// partial = first term; for each next term, partial = steps 3-4 applied to {partial, term};
// after each step partial is rounded with model.rounding to 24 + extra_bits significant bits
// (exponent unbounded): a renormalised register of that width between additions. The block
// result is the last partial rounded to fp32 (step 5; +0 if it cancelled to zero).
#pragma once
#include <cstdint>
#include <vector>

#include "models/numerics/accumulation_model.h"
#include "models/numerics/unpacked_float.h"

namespace stcsim::numerics {

// The model must be valid (validate()); an empty block gives +0.
std::uint32_t fused_block_sum(const std::vector<UnpackedFloat>& terms, const AccumulationModel& m);

}  // namespace stcsim::numerics
