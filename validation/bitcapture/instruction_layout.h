// The instructions the bit capture records and where their operands sit in a record.
//
//   mma.sync m16n8k16 (f16, bf16 -> f32), mma.sp::ordered_metadata m16n8k32 (selector 0):
//     a, b, c, d, e are the registers of the 32 lanes, lane-major (word lane * regs + i),
//     in the PTX fragment layouts models/functional and models/sparse implement.
//   wgmma m64nNk16 and wgmma.sp m64nNk32 (f16 -> f32; A in registers, B in shared memory):
//     a, e, c, d are the registers of the 128 threads, thread-major. Warp w of the
//     warpgroup holds rows 16w..16w+15 of A and D (PTX ISA 9.7.15.5.1 and, for the
//     sparsity information, 9.7.15.6.2). The model's reading within a warp (an assumption
//     the "exact" category checks): its A (and, for .sp, its metadata, selector 0) is laid
//     out as the mma.sync m16n8k16 (mma.sp m16n8k32) A of those rows, and its accumulator
//     register 4j + i is register i of the mma C fragment of columns 8j..8j+7.
//     b is the shared-memory image of B the instruction read (wgmma_smem.h), two halves
//     per word, the lower index in the low bits.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/functional/mma_types.h"
#include "models/sparse/nm_compress.h"

namespace stcsim::validation::bits {

enum class Instr { MmaSync, MmaSp, Wgmma, WgmmaSp };

struct GroupSpec {
  Instr instr = Instr::MmaSync;
  functional::MmaType type = functional::MmaType::F16;
  int n = 8;  // wgmma's N; 8 for mma

  bool sparse() const { return instr == Instr::MmaSp || instr == Instr::WgmmaSp; }
  bool warpgroup() const { return instr == Instr::Wgmma || instr == Instr::WgmmaSp; }
  int m() const { return warpgroup() ? 64 : 16; }
  int k() const { return sparse() ? 32 : 16; }  // logical K
  int threads() const { return warpgroup() ? 128 : 32; }
  std::string name() const;  // "mma_sp_m16n8k32_bf16", "wgmma_m64n64k16_f16"
  std::string ptx() const;   // the instruction as issued
  int a_words() const { return threads() * 4; }
  int b_words() const;
  int cd_words() const { return m() * n; }  // f32 accumulators, one word each
  int e_words() const { return sparse() ? threads() : 0; }
  // Offsets of the fields in a record (category first).
  int a_offset() const { return 1; }
  int b_offset() const { return a_offset() + a_words(); }
  int c_offset() const { return b_offset() + b_words(); }
  int e_offset() const { return c_offset() + cd_words(); }
  int d_offset() const { return e_offset() + e_words(); }
  int record_words() const { return d_offset() + cd_words(); }
};

const char* to_string(Instr i);  // "mma_sync", "mma_sp", "wgmma", "wgmma_sp"
// The group a header names; throws std::runtime_error for an unknown one.
GroupSpec parse_group(const std::string& instruction, const std::string& dtype, int n);

// An instruction's operands as logical matrices of bit patterns, row-major: A m x k
// (f16/bf16 in the low 16 bits; a sparse A with zeros at the pruned places), B k x n,
// C m x n (fp32 bits).
struct LogicalOperands {
  std::vector<std::uint32_t> a, b, c;
  // A sparse group's A as its metadata gives it: the kept values and their positions
  // (unpack_operands fills it; pack_operands reads a).
  sparse::CompressedNm a_kept;
};

// Logical operands -> the record's a, b, c (and e) words; throws InputError when a sparse
// A is not 2:4.
void pack_operands(const GroupSpec& g, const LogicalOperands& ops, std::uint32_t* record);
// The record's a, b, c, e words -> logical operands (InputError on bad metadata).
LogicalOperands unpack_operands(const GroupSpec& g, const std::uint32_t* record);
// A logical m x n D (or C) <-> its accumulator words.
void pack_accumulator(const GroupSpec& g, const std::vector<std::uint32_t>& d,
                      std::uint32_t* words);
std::vector<std::uint32_t> unpack_accumulator(const GroupSpec& g, const std::uint32_t* words);

}  // namespace stcsim::validation::bits
