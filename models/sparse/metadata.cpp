#include "models/sparse/metadata.h"

#include <stdexcept>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

const char* to_string(MetadataOrder o) {
  return o == MetadataOrder::Ordered ? "ordered_metadata" : "unordered metadata";
}

static std::string nibble_text(std::uint32_t v) {
  std::string s = "0b";
  for (int b = 3; b >= 0; --b) s += char('0' + ((v >> b) & 1));
  const char* hex = "0123456789ABCDEF";
  return s + " (0x" + hex[v & 0xF] + ")";
}

std::uint32_t encode_nibble(int first, int second) {
  if (first < 0 || first > 3 || second < 0 || second > 3)
    throw std::invalid_argument("2:4 metadata positions must be 0..3, got " +
                                std::to_string(first) + " and " + std::to_string(second));
  return std::uint32_t(first) | (std::uint32_t(second) << 2);
}

std::string nibble_problem(std::uint32_t nibble, MetadataOrder order) {
  if (nibble > 0xF) return "value does not fit in 4 bits";
  const int first = nibble & 3, second = (nibble >> 2) & 3;
  if (first == second)
    return "both indices are " + std::to_string(first) +
           ": a group's two kept elements must sit at distinct positions (0x0, 0x5, 0xA, 0xF "
           "are never valid)";
  if (order == MetadataOrder::Ordered && second < first)
    return "indices " + std::to_string(first) + " then " + std::to_string(second) +
           " do not increase from the LSB, as mma.sp::ordered_metadata requires (valid: 0x4, "
           "0x8, 0x9, 0xC, 0xD, 0xE)";
  return "";
}

NibbleIndices decode_nibble(std::uint32_t nibble, MetadataOrder order, const std::string& where) {
  const std::string why = nibble_problem(nibble, order);
  if (!why.empty())
    throw InputError("invalid 2:4 metadata nibble " + nibble_text(nibble & 0xF) + " at " + where +
                     ": " + why);
  return {int(nibble & 3), int((nibble >> 2) & 3)};
}

std::uint32_t encode_index_1of2(int position) {
  if (position != 0 && position != 1)
    throw std::invalid_argument("1:2 metadata position must be 0 or 1, got " +
                                std::to_string(position));
  return position == 0 ? 0x4u : 0xEu;
}

int decode_index_1of2(std::uint32_t nibble, const std::string& where) {
  if (nibble == 0x4) return 0;
  if (nibble == 0xE) return 1;
  throw InputError("invalid 1:2 (tf32) metadata nibble " + nibble_text(nibble & 0xF) + " at " +
                   where + ": only 0b0100 (position 0) and 0b1110 (position 1) are meaningful");
}

bool has_ptx_metadata(NmPattern p) { return p == NmPattern{2, 4} || p == NmPattern{1, 2}; }

static void require_ptx_metadata(NmPattern p) {
  if (!has_ptx_metadata(p))
    throw InputError("N:M " + p.str() +
                     " has no PTX metadata encoding (mma.sp takes 2:4, and 1:2 for tf32)");
}

std::uint32_t group_nibble(const CompressedNm& c, int row, int group) {
  require_ptx_metadata(c.pattern);
  const std::size_t at = std::size_t(row) * c.kept_cols() + std::size_t(group) * c.pattern.n;
  if (c.pattern.n == 1) return encode_index_1of2(c.indices[at]);
  return encode_nibble(c.indices[at], c.indices[at + 1]);
}

void set_group_nibble(CompressedNm& c, int row, int group, std::uint32_t nibble,
                      MetadataOrder order, const std::string& where) {
  require_ptx_metadata(c.pattern);
  const std::size_t at = std::size_t(row) * c.kept_cols() + std::size_t(group) * c.pattern.n;
  if (c.pattern.n == 1) {
    c.indices[at] = std::uint8_t(decode_index_1of2(nibble, where));
    return;
  }
  const NibbleIndices ix = decode_nibble(nibble, order, where);
  c.indices[at] = std::uint8_t(ix.first);
  c.indices[at + 1] = std::uint8_t(ix.second);
}

static int words_per_row(NmPattern p, int cols, int word_bits) {
  require_ptx_metadata(p);
  if (word_bits != 16 && word_bits != 32)
    throw std::invalid_argument("metadata words are 16 or 32 bits, not " +
                                std::to_string(word_bits));
  const int per_word = word_bits / 4, groups = cols / p.m;
  if (cols % p.m || groups % per_word)
    throw InputError("N:M " + p.str() + " metadata in " + std::to_string(word_bits) +
                     "-bit words: K = " + std::to_string(cols) + " must be a multiple of " +
                     std::to_string(per_word * p.m));
  return groups / per_word;
}

MetadataWords pack_metadata(const CompressedNm& c, int word_bits) {
  validate(c);
  MetadataWords w{c.rows, words_per_row(c.pattern, c.cols, word_bits), word_bits, {}};
  w.words.assign(std::size_t(c.rows) * w.words_per_row, 0);
  const int per_word = word_bits / 4;
  for (int r = 0; r < c.rows; ++r)
    for (int g = 0; g < c.groups_per_row(); ++g)
      w.words[std::size_t(r) * w.words_per_row + g / per_word] |= group_nibble(c, r, g)
                                                                  << (4 * (g % per_word));
  return w;
}

std::vector<std::uint8_t> unpack_metadata(const MetadataWords& w, NmPattern p, int cols,
                                          MetadataOrder order) {
  const int wpr = words_per_row(p, cols, w.word_bits);
  if (wpr != w.words_per_row || w.words.size() != std::size_t(w.rows) * wpr)
    throw InputError("metadata of " + std::to_string(w.rows) +
                     " rows x K = " + std::to_string(cols) + " needs " + std::to_string(wpr) +
                     " words per row, " + std::to_string(std::size_t(w.rows) * wpr) + " in all");
  CompressedNm c{w.rows, cols, p, {}, {}};
  c.indices.assign(std::size_t(w.rows) * c.kept_cols(), 0);
  const int per_word = w.word_bits / 4;
  for (int r = 0; r < w.rows; ++r)
    for (int g = 0; g < c.groups_per_row(); ++g) {
      const int word = g / per_word, lo = 4 * (g % per_word);
      const std::uint32_t nib = (w.words[std::size_t(r) * wpr + word] >> lo) & 0xF;
      set_group_nibble(c, r, g, nib, order,
                       "row " + std::to_string(r) + ", word " + std::to_string(word) + " bits [" +
                           std::to_string(lo + 3) + ":" + std::to_string(lo) + "]");
    }
  return c.indices;
}

}  // namespace stcsim::sparse
