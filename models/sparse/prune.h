// Magnitude pruning to an N:M pattern, for tests and workloads: in every group of M
// consecutive elements of a row, keep the N with the largest |x| and set the rest to
// +0. Ties go to the lower index (so the result does not depend on sort stability);
// NaN counts as larger than any number, so a NaN is kept and stays visible.
#pragma once
#include <vector>

#include "models/sparse/nm_pattern.h"

namespace stcsim::sparse {

// `values` is rows x cols row-major, K contiguous; cols must be a multiple of M.
std::vector<double> prune_magnitude(const std::vector<double>& values, int rows, int cols,
                                    NmPattern pattern);
std::vector<float> prune_magnitude(const std::vector<float>& values, int rows, int cols,
                                   NmPattern pattern);

}  // namespace stcsim::sparse
