#include "models/mapping/cutlass_sm80_tiles.h"

#include "sim/core/input_error.h"

namespace stcsim {

namespace {

struct Tile {
  int m, n, k, stages, warps_m, warps_n;
};

// GenerateSM80_TensorOp_16816, f16/bf16 inputs.
const Tile kDense16816[] = {
    {256, 128, 32, 3, 4, 2}, {128, 256, 32, 3, 2, 4}, {256, 64, 32, 3, 4, 1},
    {256, 64, 32, 4, 4, 1},  {64, 256, 32, 4, 1, 4},  {128, 128, 32, 3, 2, 2},
    {128, 128, 32, 4, 2, 2}, {128, 128, 32, 5, 2, 2}, {128, 64, 32, 6, 2, 2},
    {64, 128, 32, 6, 2, 2},  {64, 64, 32, 10, 2, 2},  {256, 128, 64, 3, 4, 2},
    {128, 256, 64, 3, 2, 4}, {256, 64, 64, 4, 4, 1},  {64, 256, 64, 4, 1, 4},
    {128, 128, 64, 4, 2, 2}, {256, 64, 64, 3, 4, 1},  {64, 256, 64, 3, 1, 4},
    {128, 128, 64, 3, 2, 2}, {128, 64, 64, 3, 2, 2},  {64, 128, 64, 3, 2, 2},
    {64, 64, 64, 5, 2, 2}};

// GenerateSM80_SparseTensorOp_16832, f16/bf16 inputs, K of the dense problem.
const Tile kSparse16832[] = {
    {64, 128, 64, 6, 2, 2},  {256, 128, 64, 3, 4, 2}, {128, 256, 64, 3, 2, 4},
    {128, 128, 64, 3, 2, 2}, {256, 64, 64, 3, 4, 1},  {64, 256, 64, 4, 1, 4},
    {128, 64, 64, 3, 2, 2},  {64, 64, 64, 4, 2, 2},   {128, 128, 128, 3, 2, 4},
    {256, 64, 128, 3, 4, 1}, {128, 64, 128, 4, 2, 2}, {64, 128, 128, 3, 2, 2},
    {64, 64, 128, 3, 2, 2}};

// GenerateSM80_TensorOp_16832_TN, s8 inputs (K in int8 elements).
const Tile kDenseS8[] = {
    {256, 128, 64, 3, 4, 2},  {128, 256, 64, 3, 2, 4},  {256, 64, 64, 4, 4, 1},
    {64, 256, 64, 4, 1, 4},   {256, 32, 64, 4, 4, 1},   {32, 256, 64, 4, 1, 4},
    {128, 128, 64, 5, 2, 2},  {128, 64, 64, 6, 2, 2},   {64, 128, 64, 6, 2, 2},
    {128, 32, 64, 6, 4, 1},   {32, 128, 64, 6, 1, 4},   {64, 64, 64, 10, 2, 2},
    {256, 128, 128, 3, 4, 2}, {128, 256, 128, 3, 2, 4}, {256, 64, 128, 4, 4, 1},
    {64, 256, 128, 4, 1, 4},  {256, 32, 128, 4, 4, 1},  {32, 256, 128, 4, 1, 4},
    {128, 128, 128, 4, 2, 2}, {128, 64, 128, 3, 2, 2},  {64, 128, 128, 3, 2, 2},
    {128, 32, 128, 4, 4, 1},  {32, 128, 128, 4, 1, 4},  {64, 64, 128, 5, 2, 2}};

template <std::size_t N>
std::vector<KernelMapping> to_mappings(const Tile (&tiles)[N]) {
  std::vector<KernelMapping> out;
  for (const Tile& t : tiles) {
    KernelMapping m;
    m.cta_m = t.m;
    m.cta_n = t.n;
    m.cta_k = t.k;
    m.warp_m = t.m / t.warps_m;
    m.warp_n = t.n / t.warps_n;
    m.stages = t.stages;
    m.chosen_by = "cutlass_sm80";
    out.push_back(m);
  }
  return out;
}

}  // namespace

std::vector<KernelMapping> cutlass_sm80_candidates(const MmaKind& kind) {
  const bool half = kind.dtype == Dtype::FP16 || kind.dtype == Dtype::BF16;
  if (half) return kind.sparsity.dense() ? to_mappings(kDense16816) : to_mappings(kSparse16832);
  if (kind.dtype == Dtype::INT8 && kind.sparsity.dense()) return to_mappings(kDenseS8);
  throw InputError(
      "mapping.policy cutlass_sm80: stcsim holds CUTLASS's sm80 tile lists for "
      "f16/bf16 (dense and 2:4) and dense s8, not for " +
      kind.str() + " (use mapping.policy chooser)");
}

}  // namespace stcsim
