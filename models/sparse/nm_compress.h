// An N:M-sparse matrix in compressed form: the kept values of each row and, for each,
// its position inside its group of M. Elements are opaque bit patterns (an fp16 in the
// low 16 bits, an s8 in the low 8, ...): an element is zero when all its bits are zero
// (-0.0 counts as a nonzero value, so that compress/uncompress round-trip bit for bit).
//
// Padding rule. When a group has fewer than N nonzeros, the missing kept slots take the
// zero positions with the highest index (e.g. 2:4 [x 0 0 0] keeps positions 0 and 3,
// [0 0 0 0] keeps 2 and 3). For 2:4 this reproduces PyTorch's semi-structured encoder
// bit for bit (its table in torch/sparse/_semi_structured_conversions.py), and for 1:2
// an all-zero pair keeps position 1 (tf32 metadata 0b1110). Kept positions are stored
// in increasing order, so the metadata always satisfies mma.sp::ordered_metadata.
#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse/nm_pattern.h"

namespace stcsim::sparse {

struct CompressedNm {
  int rows = 0, cols = 0;  // of the logical (dense) matrix; cols is the K dimension
  NmPattern pattern;
  std::vector<std::uint32_t> values;  // rows x kept_cols(), row-major
  std::vector<std::uint8_t> indices;  // same shape: position of each kept value in its group

  int kept_cols() const { return pattern.kept_cols(cols); }
  int groups_per_row() const { return cols / pattern.m; }
};

// `dense` is rows x cols, row-major with K contiguous. Throws InputError when cols is
// not a multiple of M or a group holds more than N nonzeros (naming row, group, count).
CompressedNm compress(const std::vector<std::uint32_t>& dense, int rows, int cols,
                      NmPattern pattern);

// The dense matrix back (zeros everywhere no kept value sits). Throws InputError when
// the indices are out of range or repeat inside a group.
std::vector<std::uint32_t> uncompress(const CompressedNm& c);

// Checks sizes, index range and distinct positions per group; throws InputError.
void validate(const CompressedNm& c);

}  // namespace stcsim::sparse
