#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "models/sparse/prune.h"
#include "sim/core/input_error.h"
#include "tests/sparse/random_nm.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

TEST_CASE("compress_uncompress_round_trip_every_pattern", "[sparse]") {
  std::mt19937 rng(11);
  for (const NmPattern& p : supported_patterns()) {
    for (int trial = 0; trial < 20; ++trial) {
      const int rows = 1 + rng() % 20, cols = p.m * (1 + rng() % 12);
      const auto dense = testing::random_nm(rng, rows, cols, p, testing::nonzero_bits(rng, 16));
      const CompressedNm c = compress(dense, rows, cols, p);
      INFO(p.str() << " " << rows << "x" << cols);
      REQUIRE(c.values.size() == std::size_t(rows) * cols * p.n / p.m);
      CHECK(uncompress(c) == dense);
      // Kept positions increase within each group (ordered metadata).
      for (std::size_t i = 0; i + 1 < c.indices.size(); ++i)
        if ((i + 1) % p.n) CHECK(c.indices[i] < c.indices[i + 1]);
    }
  }
}

TEST_CASE("compress_rejects_a_violating_group_naming_row_group_count", "[sparse]") {
  std::vector<std::uint32_t> a(3 * 8, 0);
  a[1 * 8 + 4] = a[1 * 8 + 5] = a[1 * 8 + 7] = 0x3C00;  // row 1, group 1: three nonzeros
  CHECK_THROWS_AS(compress(a, 3, 8, {2, 4}), InputError);
  CHECK_THROWS_WITH(compress(a, 3, 8, {2, 4}), Contains("row 1") && Contains("group 1") &&
                                                   Contains("columns 4..7") &&
                                                   Contains("3 nonzero") && Contains("2:4"));
  CHECK_NOTHROW(compress(a, 3, 8, {4, 8}));
  CHECK_THROWS_WITH(compress(a, 3, 8, {1, 2}), Contains("row 1") && Contains("group 2"));
  CHECK_THROWS_WITH(compress(std::vector<std::uint32_t>(6, 0), 1, 6, {2, 4}),
                    Contains("K = 6") && Contains("multiple of M = 4"));
}

// PyTorch's encoder table (torch/sparse/_semi_structured_conversions.py) for every
// group with at most two nonzeros; our padding rule must give the same nibble.
TEST_CASE("compress_padding_matches_pytorch_2to4_table", "[sparse]") {
  struct Row {
    unsigned mask;  // bit i: element i nonzero
    std::uint32_t nibble;
  };
  const Row table[] = {{0b0011, 0x4}, {0b0101, 0x8}, {0b0110, 0x9}, {0b1001, 0xC},
                       {0b1010, 0xD}, {0b1100, 0xE}, {0b0000, 0xE}, {0b1000, 0xE},
                       {0b0100, 0xE}, {0b0010, 0xD}, {0b0001, 0xC}};
  for (const Row& r : table) {
    std::vector<std::uint32_t> g(4, 0);
    for (int i = 0; i < 4; ++i)
      if (r.mask >> i & 1) g[i] = 0x100 + i;
    const CompressedNm c = compress(g, 1, 4, {2, 4});
    INFO("mask " << r.mask);
    CHECK(group_nibble(c, 0, 0) == r.nibble);
    CHECK(uncompress(c) == g);
  }
  // 1:2 (tf32): an all-zero pair keeps position 1 (0b1110).
  const CompressedNm t = compress({0, 0, 7, 0, 0, 9}, 1, 6, {1, 2});
  CHECK(t.indices == std::vector<std::uint8_t>{1, 0, 1});
  CHECK(group_nibble(t, 0, 0) == 0xE);
  CHECK(group_nibble(t, 0, 1) == 0x4);
}

TEST_CASE("uncompress_rejects_bad_indices", "[sparse]") {
  CompressedNm c = compress({1, 2, 0, 0}, 1, 4, {2, 4});
  c.indices = {1, 1};
  CHECK_THROWS_WITH(uncompress(c), Contains("row 0, group 0") && Contains("already taken"));
  c.indices = {0, 4};
  CHECK_THROWS_WITH(uncompress(c), Contains("outside a group of 4"));
  c.indices = {3, 0};  // unordered but distinct: fine
  CHECK(uncompress(c) == std::vector<std::uint32_t>{2, 0, 0, 1});
  c.values.pop_back();
  CHECK_THROWS_AS(uncompress(c), InputError);
}

TEST_CASE("prune_magnitude_keeps_largest_ties_to_lower_index", "[sparse]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v = {1,   -3, 2,  0.5,  // keep -3, 2
                                 2,   2,  -2, 2,    // ties: keep positions 0, 1
                                 0,   0,  0,  0,    // all zero stays zero
                                 nan, 1,  5,  -9};  // NaN counts largest
  const auto p = prune_magnitude(v, 2, 8, {2, 4});
  CHECK(p[0] == 0);
  CHECK(p[1] == -3);
  CHECK(p[2] == 2);
  CHECK(p[3] == 0);
  CHECK((p[4] == 2 && p[5] == 2 && p[6] == 0 && p[7] == 0));
  CHECK((p[8] == 0 && p[9] == 0 && p[10] == 0 && p[11] == 0));
  CHECK(std::isnan(p[12]));
  CHECK((p[13] == 0 && p[14] == 0 && p[15] == -9));
  const auto q = prune_magnitude(std::vector<float>{4, 3, 2, 1, 1, 2, 3, 4}, 1, 8, {1, 4});
  CHECK(q == std::vector<float>{4, 0, 0, 0, 0, 0, 0, 4});
  CHECK_THROWS_AS(prune_magnitude(std::vector<double>(6, 1.0), 1, 6, {2, 4}), InputError);
}

TEST_CASE("prune_then_compress_every_pattern", "[sparse]") {
  std::mt19937 rng(5);
  std::normal_distribution<double> nd(0, 1);
  for (const NmPattern& p : supported_patterns()) {
    std::vector<double> v(8 * 16);
    for (double& x : v) x = nd(rng);
    const auto pr = prune_magnitude(v, 8, 16, p);
    std::vector<std::uint32_t> bits(pr.size());
    for (std::size_t i = 0; i < pr.size(); ++i) {
      const float f = float(pr[i]);
      std::memcpy(&bits[i], &f, 4);
    }
    INFO(p.str());
    CHECK(uncompress(compress(bits, 8, 16, p)) == bits);
  }
}
