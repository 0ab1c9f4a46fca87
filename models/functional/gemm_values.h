// The output values of a whole GEMM as the simulated kernel computes them, for the
// simulator's functional mode (timing-only is the default).
//
// Each output element is a chain of warp-level mma instructions over K: in each split-K
// slice, the instruction's K (16 for f16 dense, 32 for f16 2:4, ...) is fed to the
// accumulation model in increasing k, the result of one instruction being the C of the
// next (of a sparse instruction only its kept products, as in mma_sp.h); the
// slices' fp32 partials are then added in slice order with round-to-nearest (the split-K
// reduction kernel runs on CUDA cores). The products are the same whichever operand
// is the kernel's A, so the transposed sparse kernel (docs/sparse.md) gives the same
// values.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "models/functional/dot_unit.h"
#include "models/numerics/accumulation_model.h"
#include "models/numerics/float_format.h"
#include "models/sparse/nm_pattern.h"

namespace stcsim::functional {

struct GemmValuesRequest {
  std::int64_t m = 0, n = 0, k = 0;
  int k_per_instruction = 16;
  std::int64_t k_per_split = 0;                                // 0: no split-K
  bool integer = false;                                        // int8: exact int32 accumulation
  numerics::FloatFormat format = numerics::FloatFormat::FP16;  // input format when !integer
  numerics::AccumulationModel model;
  // Set for a sparse instruction (mma.sp): b's rows are N:M-sparse in groups along K and
  // each instruction multiplies only their kept values (nm_compress.h's choice of slots),
  // so an accumulation block counts kept products. Needs k_per_instruction a multiple of M.
  std::optional<sparse::NmPattern> sparse_b;
  // When set, computes each instruction's dot product (w = b's row, x = a's row) instead
  // of mma_dot / mma_dot_int: a tensor core's own unit (ITensorCore::dot_unit).
  DotUnit dot;
};

// a: [m, k], b: [n, k] row-major bit patterns (int8 values as int32 when integer).
// Returns D [m, n] as fp32 bit patterns (int32 values when integer).
std::vector<std::uint32_t> gemm_values(const GemmValuesRequest& req,
                                       const std::vector<std::uint32_t>& a,
                                       const std::vector<std::uint32_t>& b);

}  // namespace stcsim::functional
