#include "models/sparse/semi_structured.h"

#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

static void check_reorder_shape(int rows, int meta_cols, int meta_bits) {
  if (meta_bits != 16 && meta_bits != 32)
    throw std::invalid_argument("semi-structured metadata is int16 or int32, not " +
                                std::to_string(meta_bits) + " bits");
  if (rows % 32 || meta_cols % 2 || rows < 0 || meta_cols < 0)
    throw InputError(
        "semi-structured metadata reorder needs rows a multiple of 32 and an even "
        "number of metadata columns, got " +
        std::to_string(rows) + " x " + std::to_string(meta_cols));
}

std::int64_t reorder_meta_offset(int r, int c, int rows, int meta_bits) {
  // Rows: groups of 32 (int16) or 16 (int32) are interleaved so rows r, r+8, r+16,
  // r+24 become neighbours; then within each 2x2 block the off-diagonal elements swap.
  const int group = meta_bits == 16 ? 32 : 16, interweave = meta_bits == 16 ? 4 : 2;
  int dr = r / group * group + (r % 8) * interweave + (r % group) / 8, dc = c;
  if (dr % 2 == 0 && dc % 2 == 1) {
    ++dr;
    --dc;
  } else if (dr % 2 == 1 && dc % 2 == 0) {
    --dr;
    ++dc;
  }
  // ColumnMajorInterleaved<2>: pairs of columns, column-major, the pair's two elements adjacent.
  return std::int64_t(dc / 2) * rows * 2 + std::int64_t(dr) * 2 + dc % 2;
}

std::vector<std::uint32_t> reorder_meta(const std::vector<std::uint32_t>& natural, int rows,
                                        int meta_cols, int meta_bits) {
  check_reorder_shape(rows, meta_cols, meta_bits);
  if (natural.size() != std::size_t(rows) * meta_cols)
    throw std::invalid_argument("reorder_meta: wrong number of metadata elements");
  std::vector<std::uint32_t> out(natural.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < meta_cols; ++c)
      out[reorder_meta_offset(r, c, rows, meta_bits)] = natural[std::size_t(r) * meta_cols + c];
  return out;
}

std::vector<std::uint32_t> unreorder_meta(const std::vector<std::uint32_t>& reordered, int rows,
                                          int meta_cols, int meta_bits) {
  check_reorder_shape(rows, meta_cols, meta_bits);
  if (reordered.size() != std::size_t(rows) * meta_cols)
    throw std::invalid_argument("unreorder_meta: wrong number of metadata elements");
  std::vector<std::uint32_t> out(reordered.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < meta_cols; ++c)
      out[std::size_t(r) * meta_cols + c] = reordered[reorder_meta_offset(r, c, rows, meta_bits)];
  return out;
}

static void check_element_bits(int element_bits) {
  if (element_bits != 16 && element_bits != 8)
    throw InputError(
        "semi-structured layout holds 16-bit (fp16/bf16) or 8-bit (int8) elements, "
        "not " +
        std::to_string(element_bits) + "-bit");
}

SemiStructured to_semi_structured(const CompressedNm& c, int element_bits) {
  check_element_bits(element_bits);
  if (c.pattern != NmPattern{2, 4})
    throw InputError("semi-structured layout is 2:4, not " + c.pattern.str());
  SemiStructured s{c.rows, c.cols, element_bits, c.values, {}};
  const MetadataWords w = pack_metadata(c, s.meta_bits());
  s.meta = reorder_meta(w.words, c.rows, w.words_per_row, s.meta_bits());
  return s;
}

CompressedNm from_semi_structured(const SemiStructured& s, MetadataOrder order) {
  check_element_bits(s.element_bits);
  CompressedNm c{s.rows, s.cols, {2, 4}, s.values, {}};
  MetadataWords w{s.rows, s.meta_cols(), s.meta_bits(), {}};
  w.words = unreorder_meta(s.meta, s.rows, s.meta_cols(), s.meta_bits());
  c.indices = unpack_metadata(w, c.pattern, s.cols, order);
  validate(c);
  return c;
}

std::vector<std::uint8_t> SemiStructured::packed_bytes() const {
  std::vector<std::uint8_t> out;
  auto put = [&out](std::uint32_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) out.push_back(std::uint8_t(v >> (8 * b)));
  };
  for (std::uint32_t v : values) put(v, element_bits / 8);
  for (std::uint32_t v : meta) put(v, meta_bits() / 8);
  return out;
}

}  // namespace stcsim::sparse
