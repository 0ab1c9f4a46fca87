// Where the dense operands of mma.sync / mma.sp sit in the warp's registers (PTX ISA
// 9.7.14.5, "Matrix Fragments for mma.m16n8k*"), and moving logical matrices in and
// out of fragments. With g = lane / 4, t = lane % 4 and e = 32 / element bits elements
// per register (2 for f16/bf16, 1 for tf32, 4 for s8):
//   A (16 x K, row-major "row"): register i holds row g + 8*(i % 2), columns
//     e*t + 4e*(i / 2) .. + e-1, the lower column in the lower bits.
//   B (K x 8, "col"): register i holds column g, rows e*t + 4e*i .. + e-1.
//   C, D (16 x 8, f32 or s32): register i holds row g + 8*(i / 2), column 2t + i % 2.
// The sparse instructions' B is this B with their (logical) K; their compressed A and
// metadata live in models/sparse/mma_sp_layout.h.
// Logical matrices are row-major vectors of element bit patterns (f16 in the low 16
// bits, s8 as a two's-complement byte, tf32 in the fp32 layout, f32/s32 as 32 bits).
#pragma once
#include <cstdint>
#include <vector>

#include "models/functional/mma_types.h"
#include "models/functional/warp_fragment.h"
#include "models/sparse/mma_sp_layout.h"

namespace stcsim::functional {

using sparse::RegSlot;

RegSlot a_slot(Shape s, MmaType t, int row, int col);  // dense A
RegSlot b_slot(Shape s, MmaType t, int k, int col);
RegSlot cd_slot(int row, int col);

// Logical matrix -> fragment, and back. Sizes: A 16 x K, B K x 8, C/D 16 x 8. Throws
// InputError on a wrong size or a value wider than the element.
WarpFragment a_to_fragment(Shape s, MmaType t, const std::vector<std::uint32_t>& a);
std::vector<std::uint32_t> a_from_fragment(Shape s, MmaType t, const WarpFragment& f);
WarpFragment b_to_fragment(Shape s, MmaType t, const std::vector<std::uint32_t>& b);
std::vector<std::uint32_t> b_from_fragment(Shape s, MmaType t, const WarpFragment& f);
WarpFragment cd_to_fragment(const std::vector<std::uint32_t>& c);
std::vector<std::uint32_t> cd_from_fragment(const WarpFragment& f);

}  // namespace stcsim::functional
