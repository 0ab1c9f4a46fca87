// D = A x B + C on logical matrices: each element of D is one numerics::mma_dot (or
// mma_dot_int for s8) of a row of A and a column of B over the whole K, the products fed
// in increasing k (PTX leaves the order unspecified; this is the model's choice), with
// C as the accumulator input. The functional mma/mma.sp are this, behind the register
// layouts. Shapes: A m x k, B k x n, C and D m x n, row-major element bit patterns.
#pragma once
#include <cstdint>
#include <vector>

#include "models/functional/mma_types.h"
#include "models/numerics/accumulation_model.h"
#include "models/sparse/nm_compress.h"

namespace stcsim::functional {

// `model` is ignored for s8 (exact int32 accumulation, wrapping modulo 2^32).
std::vector<std::uint32_t> mma_reference(MmaType t, int m, int n, int k,
                                         const std::vector<std::uint32_t>& a,
                                         const std::vector<std::uint32_t>& b,
                                         const std::vector<std::uint32_t>& c,
                                         const numerics::AccumulationModel& model);

// D = A x B + C with A N:M-sparse (m = a.rows, k = a.cols): the sparse tensor core selects
// the B rows each kept value's metadata names and multiplies those only, so each element of
// D is one sparse_dot (sparse_dot.h) of the row's kept values, in increasing k; the pruned
// positions never reach the adder (an inf or NaN of B there does not turn the sum to NaN).
std::vector<std::uint32_t> mma_sp_reference(MmaType t, int n, const sparse::CompressedNm& a,
                                            const std::vector<std::uint32_t>& b,
                                            const std::vector<std::uint32_t>& c,
                                            const numerics::AccumulationModel& model);

}  // namespace stcsim::functional
