// The host side of the harness: operands never zero, pruning, and the sparse operands in
// the kernels' order, checked through the formats library's own inverses and against the
// PTX metadata layout word by word.
#include <catch2/catch.hpp>

#include "models/sparse/bsr.h"
#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"
#include "validation/cuda/fragment_addressing.h"
#include "validation/harness/numerics_check.h"
#include "validation/harness/operands.h"
#include "validation/harness/sparse_pack.h"

using namespace stcsim;
using namespace stcsim::validation;

TEST_CASE("random_operands_are_never_zero_and_seeded", "[validation]") {
  const Fp16Matrix a = random_fp16(64, 128, 7), b = random_fp16(64, 128, 7),
                   c = random_fp16(64, 128, 8);
  CHECK(a == b);
  CHECK(a != c);
  for (std::uint16_t v : a) {
    CHECK((v & 0x7FFF) != 0);
    const int exp = (v >> 10) & 0x1F;
    CHECK((exp >= 12 && exp <= 15));  // |v| in [2^-3, 2)
  }
}

TEST_CASE("prune_24_keeps_two_of_four_unchanged", "[validation]") {
  const Fp16Matrix w = random_fp16(32, 64, 3), p = prune_24(w, 32, 64);
  for (std::size_t g = 0; g < w.size() / 4; ++g) {
    int kept = 0;
    for (int i = 0; i < 4; ++i) {
      const std::uint16_t v = p[4 * g + i];
      if (v) CHECK(v == w[4 * g + i]);
      kept += v != 0;
    }
    CHECK(kept == 2);
  }
}

TEST_CASE("sp24_pack_round_trips_through_the_formats_library", "[validation]") {
  for (auto [rows, cols, cta_m, cta_k] :
       {std::tuple{128, 256, 64, 64}, {256, 128, 128, 64}, {64, 64, 64, 64}}) {
    const Fp16Matrix w = prune_24(random_fp16(rows, cols, 11), rows, cols);
    const Sp24Operand op = pack_sp24(w, rows, cols, cta_m, cta_k);
    CHECK(op.values.size() == std::size_t(rows) * cols / 2);
    CHECK(op.meta.size() == std::size_t(rows) * cols / 32);
    CHECK(unpack_sp24(op) == w);
  }
}

TEST_CASE("sp24_metadata_words_follow_the_ptx_register_layout", "[validation]") {
  // Word of lane 4g+j (j = 0, 1) for a 16x32 tile: rows g in bits [15:0] and g+8 in
  // [31:16], groups 4j..4j+3 at bits 4q (docs/sparse_formats.md, f16 m16n8k32, f = 0).
  const int rows = 128, cols = 128, cta_m = 64, cta_k = 64;
  const Fp16Matrix w = prune_24(random_fp16(rows, cols, 5), rows, cols);
  const Sp24Operand op = pack_sp24(w, rows, cols, cta_m, cta_k);
  const sparse::CompressedNm c = sparse::compress(widen(w), rows, cols, sparse::NmPattern{2, 4});
  for (int mt = 0; mt < rows / 16; ++mt)
    for (int ks = 0; ks < cols / 32; ++ks)
      for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, j = lane % 2;
        const std::size_t word =
            meta_block_offset(mt * 16 / cta_m, ks * 32 / cta_k, cols / cta_k, cta_m, cta_k) / 4 +
            meta_word(lane, mt % (cta_m / 16), ks % (cta_k / 32), cta_k / 32);
        const std::uint32_t e = op.meta[word];
        for (int half = 0; half < 2; ++half)
          for (int q = 0; q < 4; ++q) {
            const int row = mt * 16 + g + 8 * half, group = ks * 8 + 4 * j + q;
            CHECK(((e >> (16 * half + 4 * q)) & 0xF) == sparse::group_nibble(c, row, group));
          }
      }
}

TEST_CASE("sp24_pack_rejects_dense_weights_and_bad_tiles", "[validation]") {
  const Fp16Matrix w = random_fp16(64, 64, 1);
  CHECK_THROWS_AS(pack_sp24(w, 64, 64, 64, 64), InputError);  // 4 nonzeros per group
  const Fp16Matrix p = prune_24(w, 64, 64);
  CHECK_THROWS_AS(pack_sp24(p, 64, 64, 48, 64), InputError);
  CHECK_THROWS_AS(pack_sp24(p, 64, 64, 64, 48), InputError);
}

TEST_CASE("block_pruning_and_bsr_packing", "[validation]") {
  const int rows = 128, cols = 256, br = 64, bc = 64;
  const Fp16Matrix w = random_fp16(rows, cols, 9);
  const Fp16Matrix p = prune_blocks(w, rows, cols, br, bc, 0.5);
  const BsrOperand op = pack_bsr(p, rows, cols, br, bc);
  CHECK(op.total_blocks == 8);
  CHECK(op.kept_blocks == 4);  // 2 of 4 per block row
  CHECK(op.row_ptr == std::vector<int>{0, 2, 4});
  sparse::Bsr b{rows, cols, br, bc, op.row_ptr, op.col_idx, widen(op.values)};
  CHECK(narrow(sparse::from_bsr(b)) == p);
  // At least one block per block row, however small the density.
  CHECK(pack_bsr(prune_blocks(w, rows, cols, br, bc, 0.01), rows, cols, br, bc).kept_blocks == 2);
  CHECK_THROWS_AS(prune_blocks(w, rows, cols, 48, bc, 0.5), InputError);
  CHECK_THROWS_AS(prune_blocks(w, rows, cols, br, bc, 0.0), InputError);
}

TEST_CASE("sample_indices_spread_and_include_both_ends", "[validation]") {
  CHECK(sample_indices(5, 8) == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(sample_indices(100, 3) == std::vector<int>{0, 49, 99});
  const auto s = sample_indices(4096, 32);
  CHECK(s.size() == 32);
  CHECK(s.front() == 0);
  CHECK(s.back() == 4095);
}
