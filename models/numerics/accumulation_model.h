// How a tensor core adds the products of a dot product into its fp32 accumulator. NVIDIA
// documents none of this (PTX leaves order, rounding and subnormals unspecified); the
// published models disagree in details, so every feature is a parameter:
// - Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ
//   Computer Science 7:e330 (2021): exact products, alignment to the largest exponent with
//   truncation, no normalisation inside a block, round toward zero.
// - Khattak and Mikaitis, "Accurate models of NVIDIA tensor cores", arXiv 2512.07004 (2025):
//   A100 fuses 8 products (4 for tf32) with 1 extra alignment bit; H100 fuses 16 (8 for
//   tf32) with 2; both round toward zero. These are the "a100" and "h100" presets.
// - Valpey et al., arXiv 2502.15999, a formal model, disagrees (3 carry bits, other
//   rounding), which is why none of the above is a constant. The fused block here keeps every
//   carry (an exact multi-operand sum); see docs/numerics.md for the exact semantics.
#pragma once
#include <string>
#include <vector>

#include "models/numerics/float_format.h"

namespace stcsim::numerics {

struct AccumulationModel {
  std::string name;
  // Products fused per block (one addition tree) before adding to the accumulator.
  int block_size = 1;
  // Alignment bits kept beyond fp32's significand when aligning to the largest term of a
  // block: below its leading bit, 24 + extra_bits bits are kept (counting the leading
  // bit); with align_on_exponents, 23 + extra_bits fraction bits below its exponent.
  int extra_bits = 0;
  // Rounding of each fused block sum into the fp32 accumulator.
  Rounding rounding = Rounding::TowardZero;
  // false: no renormalisation between additions inside a block (published model).
  bool normalize_within_block = false;
  // Treat subnormal inputs (a, b and c) as zero.
  bool flush_subnormal_inputs = false;
  // Treat a subnormal block result (the accumulator and d) as zero.
  bool flush_subnormal_output = false;
  // Whether the accumulator input c joins the first fused block (as the published models
  // describe) or is added after.
  bool c_in_first_block = true;
  // false: terms are aligned to the leading one bit of the largest term. true: to the
  // largest exponent (UnpackedFloat::unit_exponent: ea + eb for a product, c's own), as an
  // adder that never looks at a product's top bit does: a fixed-point window of two integer
  // bits (a product lies in [1, 4) times 2^(ea + eb)) and 23 + extra_bits fraction bits.
  // Khattak and Mikaitis describe their models this way; the H200's bit capture of
  // 2026-11-26 tells the two apart (validation/reports/nvidia_h200/bitsearch_mma_subset.txt).
  bool align_on_exponents = false;
  // A block sum at or beyond 2^128 becomes an infinity of its sign whatever the rounding
  // (IEEE's round toward zero would give the largest finite value). The H200's bf16
  // captures show it (an fp16 product cannot reach fp32's range).
  bool overflow_to_infinity = false;
  // A sparse instruction's blocks (functional/sparse_dot.h): false, block_size kept
  // products (the H200's mma.sp); true, block_size logical K positions, pruned ones counted
  // (the a100 preset's RTL sp24_dot takes a beat of BLOCK positions; no A100 bits say which).
  bool sparse_blocks_by_position = false;
};

// extra_bits at or above this keep every bit of every term: the alignment window then spans
// any block (the widest is a bf16 product near 2^255 with an fp32 subnormal, < 600 bits), so
// a block is an exact sum rounded once. "ieee_sequential" uses it.
inline constexpr int kExactAlignmentBits = 1024;

// "a100", "h100", "ieee_sequential" with their fp16/bf16 parameters; throws
// std::invalid_argument listing the names otherwise.
AccumulationModel accumulation_preset(const std::string& name);
// The preset for one input format: tf32 gets the halved blocks of the published models
// (a100: 4, h100: 8). Other formats get the fp16/bf16 parameters; for fp8 (which the A100
// lacks) that is an unvalidated placeholder.
AccumulationModel accumulation_preset(const std::string& name, FloatFormat input);
std::vector<std::string> accumulation_preset_names();

// Throws std::invalid_argument unless block_size >= 1, extra_bits >= 0 and, with
// normalize_within_block, extra_bits <= 100 (its partial sums are held in 128 bits) and
// align_on_exponents off (a renormalised partial has no exponent window of its own).
void validate(const AccumulationModel& m);

}  // namespace stcsim::numerics
