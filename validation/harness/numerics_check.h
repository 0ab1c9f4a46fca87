// Checks of a GPU result y = x w^T (fp32 bits, [M, N] row-major) on the host:
// - against the simulator's functional values (models/functional/gemm_values.h: the
//   exact bits of the kernel's mma instruction chain) under each accumulation preset,
//   on a sample of rows and columns, with ULP distances;
// - against a CPU reference (products and sums in double, then fp32);
// - that every element was written (the output is poisoned with NaN before the run);
// - that a kernel's fp16 output is its fp32 result rounded to nearest.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "validation/harness/operands.h"

namespace stcsim::validation {

struct PresetAgreement {
  std::string preset;
  int compared = 0, exact = 0;
  std::uint64_t max_ulp = 0;
  double mean_ulp = 0;
};

struct NumericsCheck {
  int k_per_instruction = 16;
  std::vector<int> rows, cols;           // sampled output rows (of M) and columns (of N)
  std::vector<PresetAgreement> presets;  // accumulation_preset_names() order
  double cpu_rel_error = 0;              // ||gpu - ref||_2 / ||ref||_2 over the sample
  std::uint64_t cpu_max_ulp = 0;         // vs the double reference rounded to fp32
};

// `count` indices spread evenly over 0..n-1, both ends included (all of them if n <= count).
std::vector<int> sample_indices(int n, int count);

// x [M, K] and w [N, K] as the kernel multiplies them (pruned weights with their zeros);
// k_per_instruction: 16 for mma.sync m16n8k16 chains, 32 for mma.sp m16n8k32, whose
// kernel is `sparse_mma` (the kept products only, as mma.sp multiplies them).
NumericsCheck check_numerics(const Fp16Matrix& x, const Fp16Matrix& w, int m, int n, int k,
                             int k_per_instruction, bool sparse_mma,
                             const std::vector<std::uint32_t>& gpu_y, int samples_per_dim);

// ||y - ref||_2 / ||ref||_2 over sampled elements of an fp16 result y [M, N] (vendor
// libraries), ref in double.
double sampled_rel_error_f16(const Fp16Matrix& x, const Fp16Matrix& w, int m, int n, int k,
                             const Fp16Matrix& y, int samples_per_dim);
// Elements of an fp16 result that are NaN.
std::int64_t count_nan_f16(const Fp16Matrix& y);

// Elements of an fp32 result that are NaN (unwritten after NaN poisoning, or computed NaN).
std::int64_t count_nan_f32(const std::vector<std::uint32_t>& y);
// Elements where an fp16 result differs from the fp32 result rounded to nearest even.
std::int64_t count_f16_rounding_mismatches(const std::vector<std::uint32_t>& y32,
                                           const Fp16Matrix& y16);

}  // namespace stcsim::validation
