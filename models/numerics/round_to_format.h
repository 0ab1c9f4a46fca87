// The one rounding step every conversion and every accumulator update in this library goes
// through: an exact value (-1)^negative * magnitude * 2^exponent to a storage format.
#pragma once
#include <cstdint>

#include "models/numerics/float_format.h"

namespace stcsim::numerics {

using Uint128 = unsigned __int128;  // GCC/Clang; wide enough for every fused block sum

// Rounds once with r, with gradual underflow (subnormals kept) and the overflow rules of
// encode(). A nonzero value that rounds to zero keeps its sign (as IEEE 754 underflow does);
// magnitude 0 gives the zero of sign `negative`. `exponent` may be any int whose sum with the
// magnitude's bit width does not overflow.
std::uint32_t round_to_format(FloatFormat f, bool negative, Uint128 magnitude, int exponent,
                              Rounding r);

int bit_width(Uint128 x);  // 0 for 0, else 1 + index of the highest set bit

}  // namespace stcsim::numerics
