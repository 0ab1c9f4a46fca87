// One output element of a sparse instruction (mma.sp, wgmma.sp): the kept values of the
// sparse operand's row, each at its position along the logical K, meet the other operand's
// elements at those positions; the elements at pruned positions are never read (an inf or
// NaN there does not reach the sum). How the products fall into the accumulation model's
// fused blocks is the model's sparse_blocks_by_position:
// - false: blocks of block_size kept products in increasing k (the selected operand feeding
//   the dense adder tree; the H200's mma.sp does this, bit for bit);
// - true: blocks of block_size logical positions, pruned ones counted (a unit that takes a
//   beat of positions at a time, as rtl/src/sp24_dot.sv is built). A pruned position is a
//   +0 product there, which no model adds to a nonzero sum (only an all-zero block's sign
//   can differ: +0 where the kept products alone would be -0).
#pragma once
#include <cstdint>

#include "models/numerics/accumulation_model.h"
#include "models/numerics/float_format.h"

namespace stcsim::functional {

// kept_values[s] sits at positions[s] (strictly increasing, each < k); other holds the k
// elements of the dense operand. Returns the fp32 result bits.
std::uint32_t sparse_dot(numerics::FloatFormat f, const std::uint32_t* kept_values,
                         const int* positions, int kept, const std::uint32_t* other, int k,
                         std::uint32_t c, const numerics::AccumulationModel& model);

}  // namespace stcsim::functional
