// PyTorch's semi-structured 2:4 layout (torch.sparse.to_sparse_semi_structured, CUTLASS
// backend): the kept values, rows x cols/2 in row order, and the metadata, rows x
// cols/16 int16 elements for fp16/bf16 (cols/32 int32 for int8) whose natural
// row-major packing (metadata.h) is then reordered the way CUTLASS's sparse GEMM loads
// it: the scatter of reorder_meta() (cutlass/util/host_reorder.h) into a
// ColumnMajorInterleaved<2> matrix, as torch/sparse/_semi_structured_conversions.py
// documents and reproduces. Stored together the two take 9/16 of the dense fp16 bytes
// (5/8 for int8). The metadata nibbles are those compress() gives, which match
// PyTorch's encoder for every group with at most two nonzeros (PyTorch silently drops
// extra nonzeros; compress() rejects them).
#pragma once
#include <cstdint>
#include <vector>

#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"

namespace stcsim::sparse {

struct SemiStructured {
  int rows = 0, cols = 0;             // logical (dense) shape
  int element_bits = 16;              // 16 (fp16, bf16) or 8 (int8)
  std::vector<std::uint32_t> values;  // rows x cols/2, row-major
  std::vector<std::uint32_t> meta;    // rows x meta_cols() elements, in CUTLASS's order

  int meta_bits() const { return element_bits == 16 ? 16 : 32; }
  int meta_cols() const { return cols / (meta_bits() / 4) / 4; }
  // [values | metadata] little-endian, as one buffer holds them.
  std::vector<std::uint8_t> packed_bytes() const;
};

// A 2:4 matrix into PyTorch's layout. Throws InputError unless the pattern is 2:4,
// rows is a multiple of 32 and cols of 32 (16-bit elements) or 64 (8-bit), the sizes
// the reorder needs (PyTorch's kernels want cols a multiple of 64 / 128 on top).
SemiStructured to_semi_structured(const CompressedNm& c, int element_bits);
// The inverse; each metadata nibble is checked under `order`.
CompressedNm from_semi_structured(const SemiStructured& s, MetadataOrder order);

// The metadata reorder alone, on rows x meta_cols elements of meta_bits (16 or 32):
// element (r, c) of the natural matrix goes to flat position reorder_meta_offset(...).
std::int64_t reorder_meta_offset(int r, int c, int rows, int meta_bits);
std::vector<std::uint32_t> reorder_meta(const std::vector<std::uint32_t>& natural, int rows,
                                        int meta_cols, int meta_bits);
std::vector<std::uint32_t> unreorder_meta(const std::vector<std::uint32_t>& reordered, int rows,
                                          int meta_cols, int meta_bits);

}  // namespace stcsim::sparse
