#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <tuple>

#include "models/sparse/mma_sp_layout.h"
#include "models/sparse/semi_structured.h"
#include "sim/core/input_error.h"
#include "tests/sparse/random_nm.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

static CompressedNm random_tile(std::mt19937& rng, MmaSpForm form, int rows = 16) {
  const MmaSpGeometry& g = geometry(form);
  const auto dense =
      testing::random_nm(rng, rows, g.k, g.pattern, testing::nonzero_bits(rng, g.element_bits));
  return compress(dense, rows, g.k, g.pattern);
}

TEST_CASE("mma_sp_registers_round_trip_every_form_and_selector", "[sparse]") {
  std::mt19937 rng(31);
  for (MmaSpForm form : all_mma_sp_forms()) {
    const MmaSpGeometry& g = geometry(form);
    for (int f = 0; f < g.selectors; ++f) {
      for (int trial = 0; trial < 10; ++trial) {
        const CompressedNm t = random_tile(rng, form);
        const MmaSpRegisters regs = to_mma_sp_registers(form, t, f);
        INFO(g.name << " selector " << f);
        REQUIRE(regs.a.size() == std::size_t(32 * g.a_regs));
        const CompressedNm back =
            from_mma_sp_registers(form, regs.a, regs.e, f, MetadataOrder::Ordered);
        CHECK(back.values == t.values);
        CHECK(back.indices == t.indices);
      }
    }
  }
}

// Every A element has its own bits, and together they fill every A register; the
// metadata fields are distinct and sit only in the lanes the selector picks.
TEST_CASE("mma_sp_slots_are_a_bijection", "[sparse]") {
  for (MmaSpForm form : all_mma_sp_forms()) {
    const MmaSpGeometry& g = geometry(form);
    INFO(g.name);
    std::set<std::tuple<int, int, int>> a_bits;
    for (int r = 0; r < 16; ++r)
      for (int j = 0; j < g.pattern.kept_cols(g.k); ++j) {
        const RegSlot s = a_slot(form, r, j);
        for (int b = 0; b < g.element_bits; ++b) a_bits.insert({s.lane, s.reg, s.bit + b});
      }
    CHECK(a_bits.size() == std::size_t(32 * g.a_regs * 32));
    for (int f = 0; f < g.selectors; ++f) {
      std::set<std::pair<int, int>> fields;
      std::set<int> lanes;
      for (int r = 0; r < 16; ++r)
        for (int q = 0; q < g.k / g.pattern.m; ++q) {
          const RegSlot s = metadata_slot(form, r, q, f);
          fields.insert({s.lane, s.bit});
          lanes.insert(s.lane % 4);
          CHECK(s.bit % 4 == 0);
          CHECK(s.bit < 32);
        }
      CHECK(fields.size() == std::size_t(16 * g.k / g.pattern.m));
      const std::set<int> want = g.selectors == 4   ? std::set<int>{f}
                                 : g.selectors == 2 ? std::set<int>{2 * f, 2 * f + 1}
                                                    : std::set<int>{0, 1, 2, 3};
      CHECK(lanes == want);
    }
  }
}

// Anchors read off the PTX fragment formulas and CUTLASS's sm89 sparse emulation notes.
TEST_CASE("mma_sp_layout_anchors", "[sparse]") {
  // f16 m16n8k32 A, register 2 of lane 5 (g = 1, t = 1): row 1, kept columns 10, 11.
  CHECK(a_slot(MmaSpForm::F16_M16N8K32, 1, 10).lane == 5);
  CHECK(a_slot(MmaSpForm::F16_M16N8K32, 1, 10).reg == 2);
  CHECK(a_slot(MmaSpForm::F16_M16N8K32, 1, 11).bit == 16);
  CHECK(a_slot(MmaSpForm::F16_M16N8K32, 9, 3).reg == 1);  // row g + 8
  // s8 m16n8k64 A: register 3 of lane 7 holds row 9, kept columns 28..31 (K 56..63).
  CHECK(a_slot(MmaSpForm::S8_M16N8K64, 9, 28).lane == 7);
  CHECK(a_slot(MmaSpForm::S8_M16N8K64, 9, 28).reg == 3);
  CHECK(a_slot(MmaSpForm::S8_M16N8K64, 9, 31).bit == 24);
  // tf32 m16n8k16 A: a2 of lane 6 is row 1, kept column 6 (K 12..13).
  CHECK(a_slot(MmaSpForm::TF32_M16N8K16, 1, 6).lane == 6);
  CHECK(a_slot(MmaSpForm::TF32_M16N8K16, 1, 6).reg == 2);
  // f16 m16n8k32 metadata, selector 1: lane 4g+2 groups 0-3, lane 4g+3 groups 4-7,
  // row g in [15:0], row g+8 in [31:16].
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K32, 3, 5, 1).lane == 15);
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K32, 3, 5, 1).bit == 4);
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K32, 11, 2, 1).lane == 14);
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K32, 11, 2, 1).bit == 24);
  // f16 m16n8k16, selector 2: lane 4g+2 holds everything.
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K16, 12, 3, 2).lane == 18);
  CHECK(metadata_slot(MmaSpForm::F16_M16N8K16, 12, 3, 2).bit == 28);
  // s8 m16n8k64: lane 4g+1 holds row g+8, K 0..31; lane 4g+2 row g, K 32..63.
  CHECK(metadata_slot(MmaSpForm::S8_M16N8K64, 8, 7, 0).lane == 1);
  CHECK(metadata_slot(MmaSpForm::S8_M16N8K64, 8, 7, 0).bit == 28);
  CHECK(metadata_slot(MmaSpForm::S8_M16N8K64, 2, 9, 0).lane == 10);
  CHECK(metadata_slot(MmaSpForm::S8_M16N8K64, 2, 9, 0).bit == 4);
  // s8 m16n8k32, selector 1: lane 4g+2 row g, lane 4g+3 row g+8.
  CHECK(metadata_slot(MmaSpForm::S8_M16N8K32, 15, 6, 1).lane == 31);
}

// CUTLASS's shared-memory metadata layout (the one PyTorch stores) is made so that
// lane L of a warp loads 32-bit word L (and 32 + L, ...) straight into its metadata
// register: words of a 32-row fp16 tile are the registers of its two m16 tiles under
// selectors 0 and 1; words of a 32-row int8 tile are those of its m16 tiles in turn.
TEST_CASE("mma_sp_registers_agree_with_cutlass_semi_structured_words", "[sparse]") {
  std::mt19937 rng(37);
  struct Case {
    MmaSpForm form;
    int element_bits, k;
  };
  for (const Case& cs :
       {Case{MmaSpForm::F16_M16N8K32, 16, 32}, Case{MmaSpForm::S8_M16N8K64, 8, 64}}) {
    INFO(geometry(cs.form).name);
    const auto dense =
        testing::random_nm(rng, 32, cs.k, {2, 4}, testing::nonzero_bits(rng, cs.element_bits));
    const CompressedNm all = compress(dense, 32, cs.k, {2, 4});
    const SemiStructured s = to_semi_structured(all, cs.element_bits);
    std::vector<std::uint32_t> words;  // the reordered metadata read as 32-bit words
    for (std::size_t i = 0; i < s.meta.size(); i += (s.meta_bits() == 16 ? 2 : 1))
      words.push_back(s.meta_bits() == 16 ? (s.meta[i] | s.meta[i + 1] << 16) : s.meta[i]);
    REQUIRE(words.size() == (cs.element_bits == 16 ? 32u : 64u));
    for (int tile = 0; tile < 2; ++tile) {
      CompressedNm t{16, cs.k, {2, 4}, {}, {}};
      const std::size_t per_tile = std::size_t(16) * t.kept_cols();
      t.values.assign(all.values.begin() + tile * per_tile,
                      all.values.begin() + (tile + 1) * per_tile);
      t.indices.assign(all.indices.begin() + tile * per_tile,
                       all.indices.begin() + (tile + 1) * per_tile);
      if (cs.element_bits == 16) {  // tile 0 with selector 0 (lanes 4g, 4g+1), tile 1 with 1
        const MmaSpRegisters regs = to_mma_sp_registers(cs.form, t, tile);
        for (int lane = 0; lane < 32; ++lane)
          if (lane % 4 / 2 == tile) CHECK(regs.e[lane] == words[lane]);
      } else {  // one m16n8k64 tile per 32 words
        const MmaSpRegisters regs = to_mma_sp_registers(cs.form, t, 0);
        for (int lane = 0; lane < 32; ++lane) CHECK(regs.e[lane] == words[32 * tile + lane]);
      }
    }
  }
}

TEST_CASE("mma_sp_registers_reject_bad_metadata_and_selectors", "[sparse]") {
  std::mt19937 rng(41);
  const CompressedNm t = random_tile(rng, MmaSpForm::F16_M16N8K32);
  MmaSpRegisters regs = to_mma_sp_registers(MmaSpForm::F16_M16N8K32, t, 1);
  // Lane 7 = 4*1 + 3: row 1 groups 4-7 in [15:0]; make group 5 (bits [7:4]) 0b0110.
  regs.e[7] = (regs.e[7] & ~0xF0u) | 0x60u;
  CHECK_THROWS_WITH(
      from_mma_sp_registers(MmaSpForm::F16_M16N8K32, regs.a, regs.e, 1, MetadataOrder::Ordered),
      Contains("0b0110") && Contains("lane 7") && Contains("bits [7:4]") &&
          Contains("increase from the LSB"));
  // Plain mma.sp takes it: the first kept value lands on position 2, the second on 1.
  const CompressedNm u =
      from_mma_sp_registers(MmaSpForm::F16_M16N8K32, regs.a, regs.e, 1, MetadataOrder::Unordered);
  CHECK(u.indices[1 * 16 + 5 * 2] == 2);
  CHECK(u.indices[1 * 16 + 5 * 2 + 1] == 1);
  CHECK_THROWS_WITH(to_mma_sp_registers(MmaSpForm::F16_M16N8K32, t, 2),
                    Contains("selector 2 out of range 0..1"));
  CHECK_THROWS_WITH(to_mma_sp_registers(MmaSpForm::S8_M16N8K64, t, 0), Contains("16x64"));
  CompressedNm wide = t;
  wide.values[0] = 0x12345;
  CHECK_THROWS_WITH(to_mma_sp_registers(MmaSpForm::F16_M16N8K32, wide, 0),
                    Contains("0x12345") && Contains("wider than 16 bits"));
}

// The compressed A of every form against the PTX ISA's per-element formulas (9.7.14.6.2),
// transcribed independently: element ai of a lane (e = 32 / bits per register) is a kept
// element of row `row` whose group starts at logical column `firstcol`.
TEST_CASE("mma_sp_a_layout_matches_ptx_formulas", "[sparse]") {
  for (MmaSpForm form : all_mma_sp_forms()) {
    const MmaSpGeometry& geo = geometry(form);
    const int per_reg = 32 / geo.element_bits, elems = geo.a_regs * per_reg;
    INFO(geo.name);
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      for (int i = 0; i < elems; ++i) {
        int row = 0, firstcol = 0;
        switch (form) {
          case MmaSpForm::F16_M16N8K16:  // a0,a1 row g; a2,a3 row g+8; firstcol 4t
            row = i < 2 ? g : g + 8, firstcol = 4 * t;
            break;
          case MmaSpForm::F16_M16N8K32:  // row g for 0-1, 4-5; firstcol 4t (+16 for i >= 4)
            row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8, firstcol = 4 * t + (i >= 4 ? 16 : 0);
            break;
          case MmaSpForm::TF32_M16N8K8:  // a0 row g, a1 row g+8; firstcol 2t
            row = i == 0 ? g : g + 8, firstcol = 2 * t;
            break;
          case MmaSpForm::TF32_M16N8K16:  // a0,a2 row g; firstcol 2t (+8 for a2,a3)
            row = i % 2 ? g + 8 : g, firstcol = 2 * t + (i >= 2 ? 8 : 0);
            break;
          case MmaSpForm::S8_M16N8K32:  // a0-a3 row g; firstcol 8t
            row = i < 4 ? g : g + 8, firstcol = 8 * t;
            break;
          case MmaSpForm::S8_M16N8K64:  // row g for 0-3, 8-11; firstcol 8t (+32 for i >= 8)
            row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8, firstcol = 8 * t + (i >= 8 ? 32 : 0);
            break;
        }
        // The kept elements of one register's chunk, in order: the chunk's first kept
        // column is firstcol * N / M, and element i is the (i % per_reg)-th of the chunk.
        const int kept = firstcol * geo.pattern.n / geo.pattern.m + i % per_reg;
        const RegSlot s = a_slot(form, row, kept);
        CHECK(
            (s.lane == lane && s.reg == i / per_reg && s.bit == geo.element_bits * (i % per_reg)));
      }
    }
  }
}
