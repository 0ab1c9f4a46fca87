// The dot product one tensor-core MMA computes for one element of D, bit-accurate to an
// AccumulationModel: what the functional model and the RTL testbench compare against.
#pragma once
#include <cstdint>

#include "models/numerics/accumulation_model.h"
#include "models/numerics/float_format.h"

namespace stcsim::numerics {

// d = c + sum_{i<k} a[i]*b[i]: a, b are bit patterns in `in` (fp16/bf16/tf32/e4m3/e5m2), c and the
// result are fp32 bits. Products are exact. Products are taken in order in blocks of m.block_size
// (the last block may be shorter); each block, with the running accumulator (c for the first block
// when m.c_in_first_block), is one fused_block_sum() (see fused_block_sum.h for the exact rules),
// whose fp32 result is the accumulator of the next block. With !m.c_in_first_block the first
// block holds products only and c is added last, as a fused block {accumulator, c}.
// flush_subnormal_inputs zeroes subnormal a, b and c (keeping their sign); the accumulator
// between blocks is not an input and is only flushed by flush_subnormal_output. k == 0 gives
// c itself (NaN canonicalised, flushes applied). `in` may also be FP32 (48-bit exact products).
// Throws std::invalid_argument for k < 0 or an invalid model (validate()).
std::uint32_t mma_dot(FloatFormat in, const std::uint32_t* a, const std::uint32_t* b, int k,
                      std::uint32_t c, const AccumulationModel& m);

// Integer MMA: exact int32 accumulation of int8 (or int4) products; wraps modulo 2^32 like PTX
// without .satfinite. Each product is formed exactly in 64 bits, so any int32 inputs give the sum
// modulo 2^32.
std::int32_t mma_dot_int(const std::int32_t* a, const std::int32_t* b, int k, std::int32_t c);

}  // namespace stcsim::numerics
