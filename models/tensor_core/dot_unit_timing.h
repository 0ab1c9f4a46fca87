// The analytic timing of the RTL dot-product units (rtl/src/sp24_dot.sv, dense_dot.sv)
// seen as a sub-core mma pipe: the closed form of what `impl: rtl` (rtl/model) measures
// by clocking the Verilated unit. tests/rtl checks that the two agree for every kind.
//
// A warp-level mma of shape m x n x K is m*n dot products of logical K (m16n8: 128). A
// pipe has `units` dot units in lockstep; each takes ceil(m*n / units) of them back to
// back, one beat of BLOCK logical K per cycle (K/BLOCK beats each), so its input is busy
//   ii = ceil(m*n / units) * K / BLOCK cycles.
// The unit is a 2-stage pipeline (products, then the fused add): with the first beat on
// the input in cycle 0, the last dot product's result is on the output (out_valid) in
// cycle ii - 1 + 2. Operand reads and the write-back add `operand_latency` cycles:
//   latency = operand_latency + ii + 1.
#pragma once
#include "models/common/mma_kind.h"

namespace stcsim {

inline constexpr int kDotUnitStages = 2;

struct DotUnitTiming {
  int ii = 0;       // cycles the units' input is busy with one instruction
  int latency = 0;  // cycles from issue to the instruction's last result
};

inline DotUnitTiming dot_unit_timing(int dots, int units, int k, int block, int operand_latency) {
  const int beats = (dots + units - 1) / units * (k / block);
  return {beats, operand_latency + beats + kDotUnitStages - 1};
}

inline DotUnitTiming dot_unit_timing(const MmaKind& kind, int units, int block,
                                     int operand_latency) {
  const MmaShape s = kind.shape();
  return dot_unit_timing(s.m * s.n, units, s.k, block, operand_latency);
}

}  // namespace stcsim
