// The metadata of PTX mma.sp: 4 bits per group, packed LSB first.
//
// 2:4 (f16, bf16, s8): a nibble per group of four, two 2-bit positions: bits [1:0] the
// position of the first kept element (the one in the lower half of the A register),
// bits [3:2] the second. Of the 16 nibbles:
//   always invalid (both kept elements at one position; PTX: undefined behaviour):
//     0x0 (0,0), 0x5 (1,1), 0xA (2,2), 0xF (3,3)
//   invalid only under mma.sp::ordered_metadata, which wants positions increasing from
//   the LSB (first < second):
//     0x1 (1,0), 0x2 (2,0), 0x3 (3,0), 0x6 (2,1), 0x7 (3,1), 0xB (3,2)
//   valid in both forms: 0x4 (0,1), 0x8 (0,2), 0x9 (1,2), 0xC (0,3), 0xD (1,3), 0xE (2,3)
// Plain mma.sp accepts the 12 nibbles with distinct positions (in either order).
//
// 1:2 (tf32): a nibble per kept element, read as a 2:4 nibble over the tf32's two
// 16-bit halves: 0b0100 = position 0, 0b1110 = position 1; the other 14 are invalid.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/sparse/nm_compress.h"

namespace stcsim::sparse {

enum class MetadataOrder {
  Ordered,    // mma.sp::ordered_metadata (PTX 8.5): positions increase from the LSB
  Unordered,  // plain mma.sp: any two distinct positions
};
const char* to_string(MetadataOrder o);

struct NibbleIndices {
  int first = 0, second = 0;
};

// 2:4 nibble of two positions (0..3); std::invalid_argument outside that range.
std::uint32_t encode_nibble(int first, int second);
// Why a 2:4 nibble is invalid under `order`, or "" when it is valid.
std::string nibble_problem(std::uint32_t nibble, MetadataOrder order);
// Decodes a 2:4 nibble; InputError naming the nibble value and `where` (its position).
NibbleIndices decode_nibble(std::uint32_t nibble, MetadataOrder order, const std::string& where);

// 1:2 (tf32) index nibble of a position (0 or 1), and back (InputError when invalid).
std::uint32_t encode_index_1of2(int position);
int decode_index_1of2(std::uint32_t nibble, const std::string& where);

// Whether PTX defines a metadata encoding for the pattern (2:4 and 1:2).
bool has_ptx_metadata(NmPattern p);
// The 4-bit metadata field of one group of a compressed matrix (2:4 or 1:2).
std::uint32_t group_nibble(const CompressedNm& c, int row, int group);
// Sets the kept positions of one group from its field; InputError as decode_nibble.
void set_group_nibble(CompressedNm& c, int row, int group, std::uint32_t nibble,
                      MetadataOrder order, const std::string& where);

// Metadata of a whole matrix in memory order: each row's group fields, LSB first, in
// 16- or 32-bit words (group j of a row at bits 4*(j % per_word) of word j / per_word,
// per_word = word_bits / 4). This is the row-major ("natural") order; the mma.sp register
// layout (mma_sp_layout.h) and CUTLASS/PyTorch's (semi_structured.h) reorder it.
struct MetadataWords {
  int rows = 0, words_per_row = 0, word_bits = 16;
  std::vector<std::uint32_t> words;  // rows x words_per_row
};
// Throws InputError for patterns without PTX metadata or rows not filling whole words.
MetadataWords pack_metadata(const CompressedNm& c, int word_bits);
// The kept positions (CompressedNm::indices) the words describe, each field checked.
std::vector<std::uint8_t> unpack_metadata(const MetadataWords& w, NmPattern p, int cols,
                                          MetadataOrder order);

}  // namespace stcsim::sparse
