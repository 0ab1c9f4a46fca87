#include <catch2/catch.hpp>
#include <random>

#include "models/sparse/semi_structured.h"
#include "sim/core/input_error.h"
#include "tests/sparse/random_nm.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

// PyTorch's own gather (the "magic" offsets of _sparse_semi_structured_from_dense in
// torch/sparse/_semi_structured_conversions.py), transcribed: reordered[f] =
// natural[offset(f)]. Our scatter from CUTLASS's reorder_meta must agree with it.
static std::vector<std::int64_t> pytorch_gather_offsets(int m, int k, int meta_bits) {
  const int quad = meta_bits / 4, meta_ncols = k / (4 * quad);
  int magic0, magic1, magic2;
  std::int64_t magic3;
  std::vector<std::int64_t> magic4;
  if (meta_bits == 32) {
    magic0 = 4, magic1 = 32, magic2 = 16, magic3 = k / 2;
    magic4 = {0, k / 4, 1, k / 4 + 1};
  } else {
    magic0 = 8, magic1 = 64, magic2 = 32, magic3 = 2 * k;
    magic4 = {0, k / 2, 1, k / 2 + 1, k, 3 * k / 2, k + 1, 3 * k / 2 + 1};
  }
  std::vector<std::int64_t> off(std::size_t(m) * meta_ncols);
  for (std::int64_t f = 0; f < std::int64_t(off.size()); ++f)
    off[f] = 2 * (f / (2 * m)) + (f % magic1) / magic0 * meta_ncols +
             (f / magic1) % (m / magic2) * magic3 + magic4[(f % magic1) % magic4.size()];
  return off;
}

TEST_CASE("semi_structured_reorder_matches_pytorch_gather", "[sparse]") {
  for (int meta_bits : {16, 32}) {
    const int kmul = meta_bits == 16 ? 64 : 128;  // PyTorch's column multiple
    for (int m : {32, 64, 96}) {
      for (int k : {kmul, 2 * kmul, 4 * kmul}) {
        const int meta_cols = k / meta_bits;  // k / (4 positions x meta_bits/4 nibbles)
        std::vector<std::uint32_t> natural(std::size_t(m) * meta_cols);
        for (std::size_t i = 0; i < natural.size(); ++i) natural[i] = std::uint32_t(i);
        const auto ours = reorder_meta(natural, m, meta_cols, meta_bits);
        const auto off = pytorch_gather_offsets(m, k, meta_bits);
        INFO("int" << meta_bits << " metadata, dense " << m << "x" << k);
        REQUIRE(off.size() == ours.size());
        bool same = true;
        for (std::size_t f = 0; f < off.size(); ++f) same = same && ours[f] == natural[off[f]];
        CHECK(same);
        CHECK(unreorder_meta(ours, m, meta_cols, meta_bits) == natural);
      }
    }
  }
}

TEST_CASE("semi_structured_round_trip_fp16_and_int8", "[sparse]") {
  std::mt19937 rng(23);
  for (int bits : {16, 8}) {
    for (int trial = 0; trial < 6; ++trial) {
      const int rows = 32 * (1 + rng() % 3), cols = (bits == 16 ? 32 : 64) * (1 + rng() % 4);
      const auto dense =
          testing::random_nm(rng, rows, cols, {2, 4}, testing::nonzero_bits(rng, bits));
      const CompressedNm c = compress(dense, rows, cols, {2, 4});
      const SemiStructured s = to_semi_structured(c, bits);
      INFO(bits << "-bit " << rows << "x" << cols);
      CHECK(s.values.size() == std::size_t(rows) * cols / 2);
      CHECK(s.meta.size() == std::size_t(rows) * s.meta_cols());
      const CompressedNm back = from_semi_structured(s, MetadataOrder::Ordered);
      CHECK(back.indices == c.indices);
      CHECK(uncompress(back) == dense);
      // 9/16 of the dense bytes for 16-bit elements, 5/8 for 8-bit.
      const std::size_t dense_bytes = std::size_t(rows) * cols * bits / 8;
      CHECK(s.packed_bytes().size() * (bits == 16 ? 16 : 8) == dense_bytes * (bits == 16 ? 9 : 5));
    }
  }
}

TEST_CASE("semi_structured_rejects_unsupported_shapes", "[sparse]") {
  const auto c16 = compress(std::vector<std::uint32_t>(16 * 32, 0), 16, 32, {2, 4});
  CHECK_THROWS_WITH(to_semi_structured(c16, 16), Contains("multiple of 32"));
  const auto c14 = compress(std::vector<std::uint32_t>(32 * 16, 0), 32, 16, {1, 4});
  CHECK_THROWS_WITH(to_semi_structured(c14, 16), Contains("2:4, not 1:4"));
  CHECK_THROWS_WITH(
      to_semi_structured(compress(std::vector<std::uint32_t>(32 * 32, 0), 32, 32, {2, 4}), 32),
      Contains("16-bit") && Contains("8-bit"));
}
