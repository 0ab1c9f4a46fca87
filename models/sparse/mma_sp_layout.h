// Where the operands of a warp-level mma.sp that are particular to sparsity, the
// compressed A and its metadata, sit in the registers of the warp's 32 lanes
// (PTX ISA 9.7.14.6, "Matrix fragments for multiply-accumulate operation with sparse
// matrix A"). B, C and D use the dense mma layouts (models/functional).
//
// A 16 x K tile of A, compressed (16 x K*N/M kept values), is spread exactly as the
// dense mma A of the compressed tile is: with g = lane / 4, t = lane % 4 and e = 32 /
// element_bits elements per register, register i of a lane holds row g + 8*(i % 2),
// kept columns e*t + 4e*(i / 2) .. + e-1, the lower kept column in the lower bits.
//
// Metadata: one 32-bit register per lane, 4 bits per group (metadata.h); the sparsity
// selector f picks which lanes of each quad supply it:
//   f16/bf16 m16n8k16, tf32 m16n8k8 (f = 0..3): lane 4g+f holds row g's 4 groups in
//     bits [15:0] and row g+8's in [31:16], group q at bits 4q.
//   f16/bf16 m16n8k32, tf32 m16n8k16 (f = 0..1): lanes 4g+2f (groups 0-3) and 4g+2f+1
//     (groups 4-7), each with row g in [15:0] and row g+8 in [31:16].
//   s8 m16n8k32 (f = 0..1): lane 4g+2f holds row g's 8 groups, lane 4g+2f+1 row g+8's.
//   s8 m16n8k64 (f = 0): lanes 4g, 4g+1 hold rows g, g+8 for groups 0-7 (K 0..31);
//     lanes 4g+2, 4g+3 the same for groups 8-15 (K 32..63).
// docs/sparse_formats.md gives the sources and says which of these are inferred.
#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"

namespace stcsim::sparse {

enum class MmaSpForm {
  F16_M16N8K16,
  F16_M16N8K32,
  TF32_M16N8K8,
  TF32_M16N8K16,
  S8_M16N8K32,
  S8_M16N8K64
};

struct MmaSpGeometry {
  int m = 16, n = 8, k = 0;  // logical (uncompressed) instruction shape
  int element_bits = 16;     // 16 (f16, bf16), 32 (tf32), 8 (s8, u8)
  NmPattern pattern;         // 2:4, or 1:2 for tf32
  int a_regs = 0;            // 32-bit registers of compressed A per lane
  int selectors = 0;         // valid sparsity selectors: 0 .. selectors-1
  const char* name = "";     // "m16n8k32 f16/bf16"
};
const MmaSpGeometry& geometry(MmaSpForm form);
const std::vector<MmaSpForm>& all_mma_sp_forms();

// A bit field in the warp's registers: register `reg` of lane `lane`, from bit `bit` up.
struct RegSlot {
  int lane = 0, reg = 0, bit = 0;
};
// Where kept element `kept_col` of row `row` (of the 16 x K*N/M compressed tile) sits.
RegSlot a_slot(MmaSpForm form, int row, int kept_col);
// Where the 4-bit metadata field of group `group` of row `row` sits (reg is always 0).
RegSlot metadata_slot(MmaSpForm form, int row, int group, int selector);

struct MmaSpRegisters {
  int a_regs = 0;
  std::vector<std::uint32_t> a;  // 32 x a_regs: a[lane * a_regs + i]
  std::vector<std::uint32_t> e;  // 32: lanes that supply no metadata under the selector hold 0
};

// A compressed 16 x K tile (K the form's) into the registers mma.sp takes with selector
// `selector`. Throws InputError on a tile of the wrong shape or pattern, a selector
// out of range, or a value wider than the element.
MmaSpRegisters to_mma_sp_registers(MmaSpForm form, const CompressedNm& tile, int selector);

// The inverse, reading only the lanes `selector` picks; every metadata field is checked
// under `order` (InputError naming the lane, its bits and the nibble).
CompressedNm from_mma_sp_registers(MmaSpForm form, const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& e, int selector,
                                   MetadataOrder order);

}  // namespace stcsim::sparse
