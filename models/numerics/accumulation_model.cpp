#include "models/numerics/accumulation_model.h"

#include <stdexcept>

namespace stcsim::numerics {

std::vector<std::string> accumulation_preset_names() { return {"a100", "h100", "ieee_sequential"}; }

AccumulationModel accumulation_preset(const std::string& name) {
  AccumulationModel m;
  m.name = name;
  // Khattak & Mikaitis 2025 (fp16/bf16). a100: the window from the leading bit, as first
  // read, which the RTL tensor cores implement; no A100 bits have been captured to tell
  // (the paper's exponent alignment, which the H200 showed for h100, may hold here too).
  if (name == "a100") {
    m.block_size = 8;
    m.extra_bits = 1;
    m.rounding = Rounding::TowardZero;
    m.sparse_blocks_by_position = true;
  } else if (name == "h100") {
    // Exponent alignment and overflow to inf, as the H200's bit capture of 2026-11-26
    // shows: every mma.sync and mma.sp record (f16, bf16) bit for bit; anchored at the
    // leading bit, none of its random records matched.
    m.block_size = 16;
    m.extra_bits = 2;
    m.rounding = Rounding::TowardZero;
    m.align_on_exponents = true;
    m.overflow_to_infinity = true;  // measured on the H200 (bf16); the A100's is not known
  } else if (name == "ieee_sequential") {
    // One fp32 fma per product, in order, c first: a block of one product plus the
    // accumulator, aligned without loss and rounded once to nearest even.
    m.block_size = 1;
    m.extra_bits = kExactAlignmentBits;
    m.rounding = Rounding::NearestEven;
  } else {
    std::string names;
    for (const std::string& n : accumulation_preset_names())
      names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown accumulation model '" + name + "' (known: " + names + ")");
  }
  return m;
}

AccumulationModel accumulation_preset(const std::string& name, FloatFormat input) {
  AccumulationModel m = accumulation_preset(name);
  // TF32 operands are twice as wide per element, so the same adder tree fuses half as many.
  if (input == FloatFormat::TF32 && name == "a100") m.block_size = 4;
  if (input == FloatFormat::TF32 && name == "h100") m.block_size = 8;
  return m;
}

void validate(const AccumulationModel& m) {
  if (m.block_size < 1) {
    throw std::invalid_argument("accumulation model '" + m.name + "': block_size must be >= 1");
  }
  if (m.extra_bits < 0) {
    throw std::invalid_argument("accumulation model '" + m.name + "': extra_bits must be >= 0");
  }
  if (m.normalize_within_block && m.align_on_exponents) {
    throw std::invalid_argument("accumulation model '" + m.name +
                                "': normalize_within_block renormalises each partial sum to its "
                                "leading bit, so it cannot also align on exponents");
  }
  if (m.normalize_within_block && m.extra_bits > 100) {
    throw std::invalid_argument("accumulation model '" + m.name +
                                "': normalize_within_block needs extra_bits <= 100");
  }
}

}  // namespace stcsim::numerics
