// Random dot-product vectors for the RTL testbenches (tb_sp24_dot, tb_sp24_dot_sc,
// tb_dense_dot) and their golden values (models/numerics mma_dot, mma_dot_int).
//
// A vector is one dot product of `beats` beats of `block` logical K (block = the RTL
// preset's fused-block size): fp16, bf16 or (1/8) s8; never all zero; modes mix similar
// magnitudes, the full exponent range, raw bit patterns (NaN, inf), specials (+-0,
// +-inf, NaN, max finite, subnormals), tiny bf16 operands and exactly cancelling
// products; ~1% carry an unordered metadata nibble. Each vector also carries a dense A
// (the kept values at their positions, random values of the same mode elsewhere) for
// dense_dot. The random sequence for a seed is fixed: the test figures in docs/rtl.md
// depend on it.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/accumulation_model.h"

namespace stcsim::rtl_tb {

enum class Mode { Similar, Wide, Bits, Special, Tiny, Cancel };

struct DotVec {
  bool bf16 = false;
  bool int8 = false;  // s8 A/B in the low bytes, s32 C and D (mma_dot_int)
  int beats = 1;
  std::vector<std::uint32_t> kept;     // beats * block/2 kept A values
  std::vector<std::uint8_t> nibbles;   // beats * block/4
  std::vector<std::uint32_t> b;        // beats * block
  std::vector<std::uint32_t> dense_a;  // beats * block (dense_dot's A); empty for traces
  std::uint32_t c = 0;
  bool invalid_meta = false;
};

struct DotResult {
  std::uint32_t d = 0;
  bool meta_err = false;
};

// The 2:4 vector's A with the kept values at their positions, zeros elsewhere.
std::vector<std::uint32_t> logical_a(const DotVec& v, int block);
// D of the 2:4 vector (logical A) or, with `dense`, of dense_a, under `model`.
std::uint32_t golden(const DotVec& v, int block, const numerics::AccumulationModel& model,
                     bool dense = false);

// `dense_rng`: also fill dense_a, drawing from this second generator (so that `rng`'s
// sequence, and hence every vector of a seed, is the same with or without it; in Cancel
// mode the B values at the pruned positions are then set to cancel too).
DotVec random_vec(int block, std::mt19937_64& rng, std::mt19937_64* dense_rng = nullptr);
// A finite nonzero fp16/bf16 value: exponent field in [lo, hi], random mantissa and sign.
std::uint32_t finite16(bool bf16, int lo, int hi, std::mt19937_64& rng);
std::uint32_t value32(Mode mode, std::mt19937_64& rng);

std::string hex_list(const std::vector<std::uint32_t>& x);
const char* format_name(const DotVec& v);

// Counts of result classes, for the testbenches' summary line.
struct ResultClasses {
  std::size_t int8 = 0, nan = 0, inf = 0, zero = 0, sub = 0, max = 0, total = 0;
  void add(const DotVec& v, std::uint32_t expect);
  std::string str() const;
};

}  // namespace stcsim::rtl_tb
