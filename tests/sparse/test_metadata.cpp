#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "models/sparse/metadata.h"
#include "sim/core/input_error.h"
#include "tests/sparse/random_nm.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

TEST_CASE("metadata_all_16_nibbles_under_both_orders", "[sparse]") {
  const std::set<std::uint32_t> ordered_valid = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};
  const std::set<std::uint32_t> never_valid = {0x0, 0x5, 0xA, 0xF};
  for (std::uint32_t nib = 0; nib < 16; ++nib) {
    INFO("nibble " << nib);
    const int first = nib & 3, second = nib >> 2;
    const std::string where = "lane 3 bits [7:4]";
    // Ordered (mma.sp::ordered_metadata): exactly the six increasing pairs.
    if (ordered_valid.count(nib)) {
      const NibbleIndices ix = decode_nibble(nib, MetadataOrder::Ordered, where);
      CHECK((ix.first == first && ix.second == second && first < second));
      CHECK(encode_nibble(first, second) == nib);
    } else {
      CHECK_THROWS_AS(decode_nibble(nib, MetadataOrder::Ordered, where), InputError);
      std::string bin = "0b";
      for (int b = 3; b >= 0; --b) bin += char('0' + (nib >> b & 1));
      CHECK_THROWS_WITH(decode_nibble(nib, MetadataOrder::Ordered, where),
                        Contains(bin) && Contains(where));
      CHECK_THROWS_WITH(
          decode_nibble(nib, MetadataOrder::Ordered, where),
          Contains(never_valid.count(nib) ? "distinct positions" : "do not increase from the LSB"));
    }
    // Unordered (plain mma.sp): any two distinct positions.
    if (never_valid.count(nib)) {
      CHECK_THROWS_WITH(decode_nibble(nib, MetadataOrder::Unordered, where),
                        Contains("distinct positions"));
    } else {
      const NibbleIndices ix = decode_nibble(nib, MetadataOrder::Unordered, where);
      CHECK((ix.first == first && ix.second == second));
    }
    // 1:2 (tf32): only 0b0100 and 0b1110.
    if (nib == 0x4 || nib == 0xE) {
      CHECK(decode_index_1of2(nib, where) == (nib == 0x4 ? 0 : 1));
    } else {
      CHECK_THROWS_WITH(decode_index_1of2(nib, where), Contains("1:2") && Contains(where));
    }
  }
  CHECK(encode_index_1of2(0) == 0x4);
  CHECK(encode_index_1of2(1) == 0xE);
}

TEST_CASE("metadata_words_pack_lsb_first_in_row_order", "[sparse]") {
  // One row, K = 32: groups 0..7; group g keeps (g % 3, 3).
  std::vector<std::uint32_t> row(32, 0);
  std::vector<std::uint32_t> want_nibbles;
  for (int g = 0; g < 8; ++g) {
    row[g * 4 + g % 3] = 1;
    row[g * 4 + 3] = 2;
    want_nibbles.push_back(encode_nibble(g % 3, 3));
  }
  const CompressedNm c = compress(row, 1, 32, {2, 4});
  const MetadataWords w16 = pack_metadata(c, 16);
  REQUIRE(w16.words.size() == 2);
  std::uint32_t lo = 0, hi = 0;
  for (int g = 0; g < 4; ++g) lo |= want_nibbles[g] << 4 * g;
  for (int g = 0; g < 4; ++g) hi |= want_nibbles[g + 4] << 4 * g;
  CHECK(w16.words[0] == lo);
  CHECK(w16.words[1] == hi);
  const MetadataWords w32 = pack_metadata(c, 32);
  REQUIRE(w32.words.size() == 1);
  CHECK(w32.words[0] == (lo | hi << 16));
  CHECK_THROWS_WITH(pack_metadata(compress(std::vector<std::uint32_t>(8, 0), 1, 8, {2, 4}), 16),
                    Contains("multiple of 16"));
  CHECK_THROWS_WITH(pack_metadata(compress(std::vector<std::uint32_t>(16, 0), 1, 16, {1, 4}), 16),
                    Contains("no PTX metadata"));
}

TEST_CASE("metadata_words_round_trip_and_name_bad_nibbles", "[sparse]") {
  std::mt19937 rng(3);
  for (NmPattern p : {NmPattern{2, 4}, NmPattern{1, 2}}) {
    for (int bits : {16, 32}) {
      const int rows = 5, cols = 8 * p.m * (bits / 16);
      const auto dense = testing::random_nm(rng, rows, cols, p, testing::nonzero_bits(rng, 16));
      const CompressedNm c = compress(dense, rows, cols, p);
      const MetadataWords w = pack_metadata(c, bits);
      INFO(p.str() << " in " << bits << "-bit words");
      CHECK(unpack_metadata(w, p, cols, MetadataOrder::Ordered) == c.indices);
      MetadataWords bad = w;
      bad.words[2 * w.words_per_row] &= ~0xF0u;  // row 2, word 0, group 1 -> 0b0000
      CHECK_THROWS_WITH(unpack_metadata(bad, p, cols, MetadataOrder::Unordered),
                        Contains("0b0000") && Contains("row 2, word 0 bits [7:4]"));
    }
  }
}
