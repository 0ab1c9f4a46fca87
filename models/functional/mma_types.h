// The warp-level MMA instructions the functional model runs: an operand type and a
// shape m16n8kK. Dense (mma.sync) forms: f16/bf16 m16n8k8 and m16n8k16, tf32 m16n8k8,
// s8 m16n8k32; sparse (mma.sp) forms: f16/bf16 m16n8k16 and m16n8k32, tf32 m16n8k8 and
// m16n8k16 (1:2), s8 m16n8k32 and m16n8k64 (2:4). Accumulators are f32 (s32 for s8).
#pragma once
#include <string>

#include "models/numerics/float_format.h"
#include "models/sparse/mma_sp_layout.h"

namespace stcsim::functional {

enum class MmaType { F16, BF16, TF32, S8 };
enum class Shape { M16N8K8, M16N8K16, M16N8K32, M16N8K64 };

const char* to_string(MmaType t);  // "f16", "bf16", "tf32", "s8"
const char* to_string(Shape s);    // "m16n8k16"
int k_of(Shape s);
int element_bits(MmaType t);  // bits of one A/B element in a register: 16, 32 (tf32), 8
// The numerics format of a floating-point type (std::invalid_argument for s8).
numerics::FloatFormat float_format(MmaType t);
// "f16_f32", "s8_s32": the test-name stem for inputs and accumulator.
std::string type_pair(MmaType t);

bool dense_supported(Shape s, MmaType t);
bool sparse_supported(Shape s, MmaType t);
// The sparse formats library's name for an mma.sp form (InputError if unsupported).
sparse::MmaSpForm sparse_form(Shape s, MmaType t);

// 32-bit registers per lane of each operand of the form (sparse: A compressed).
int a_regs(Shape s, MmaType t, bool sparse);
int b_regs(Shape s, MmaType t);
inline constexpr int kCdRegs = 4;

}  // namespace stcsim::functional
