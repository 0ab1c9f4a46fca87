// The register layouts checked element by element against the PTX ISA's own formulas
// (9.7.14.5 "Matrix Fragments for mma.m16n8k*"), transcribed here independently of the
// library's closed forms: ai / bi / ci is element i of a lane's fragment, low to high,
// with 32 / bits elements per register.
#include <catch2/catch.hpp>
#include <random>

#include "models/functional/fragment_layout.h"
#include "sim/core/input_error.h"
#include "tests/functional/random_operands.h"

using namespace stcsim;
using namespace stcsim::functional;

namespace {

struct Pos {
  int row, col;
};

// PTX: row/col of element i held by a lane (g = groupID, t = threadID_in_group).
Pos ptx_a(Shape s, MmaType t, int g, int tg, int i) {
  if (t == MmaType::TF32)  // m16n8k8 .tf32
    return {i % 2 ? g + 8 : g, i < 2 ? tg : tg + 4};
  if (t == MmaType::S8)  // m16n8k32 .s8
    return {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, tg * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  if (s == Shape::M16N8K8)  // m16n8k8 .f16/.bf16
    return {i < 2 ? g : g + 8, tg * 2 + (i & 1)};
  return {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, tg * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
}

Pos ptx_b(Shape s, MmaType t, int g, int tg, int i) {
  if (t == MmaType::TF32)  // m16n8k8; sparse m16n8k16 (Figure 124, inferred) continues by 4
    return {tg + 4 * i, g};
  if (t == MmaType::S8)  // m16n8k32; sparse m16n8k64 continues by 16 per register
    return {tg * 4 + (i & 3) + 16 * (i / 4), g};
  if (s == Shape::M16N8K8) return {tg * 2 + i, g};
  return {tg * 2 + (i & 1) + 8 * (i / 2), g};  // m16n8k16; sparse m16n8k32 continues by 8
}

Pos ptx_cd(int g, int tg, int i) { return {i < 2 ? g : g + 8, tg * 2 + (i & 1)}; }

struct Form {
  Shape s;
  MmaType t;
};

}  // namespace

TEST_CASE("fragment_layout_dense_a_b_cd_match_ptx_formulas", "[functional]") {
  const Form dense[] = {{Shape::M16N8K16, MmaType::F16},
                        {Shape::M16N8K8, MmaType::BF16},
                        {Shape::M16N8K8, MmaType::TF32},
                        {Shape::M16N8K32, MmaType::S8}};
  for (const Form& f : dense) {
    INFO(to_string(f.s) << " " << to_string(f.t));
    const int bits = element_bits(f.t), per_reg = 32 / bits;
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, tg = lane % 4;
      for (int i = 0; i < a_regs(f.s, f.t, false) * per_reg; ++i) {
        const Pos p = ptx_a(f.s, f.t, g, tg, i);
        const RegSlot sl = a_slot(f.s, f.t, p.row, p.col);
        CHECK((sl.lane == lane && sl.reg == i / per_reg && sl.bit == bits * (i % per_reg)));
      }
      for (int i = 0; i < b_regs(f.s, f.t) * per_reg; ++i) {
        const Pos p = ptx_b(f.s, f.t, g, tg, i);
        const RegSlot sl = b_slot(f.s, f.t, p.row, p.col);
        CHECK((sl.lane == lane && sl.reg == i / per_reg && sl.bit == bits * (i % per_reg)));
      }
      for (int i = 0; i < 4; ++i) {
        const Pos p = ptx_cd(g, tg, i);
        const RegSlot sl = cd_slot(p.row, p.col);
        CHECK((sl.lane == lane && sl.reg == i && sl.bit == 0));
      }
    }
  }
}

// The wider B of the sparse instructions (f16 k32, tf32 k16, s8 k64).
TEST_CASE("fragment_layout_sparse_b_matches_ptx_and_cutlass", "[functional]") {
  const Form wide[] = {{Shape::M16N8K32, MmaType::F16},
                       {Shape::M16N8K16, MmaType::TF32},
                       {Shape::M16N8K64, MmaType::S8}};
  for (const Form& f : wide) {
    INFO(to_string(f.s) << " " << to_string(f.t));
    const int bits = element_bits(f.t), per_reg = 32 / bits;
    REQUIRE(b_regs(f.s, f.t) == 4);
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 4 * per_reg; ++i) {
        const Pos p = ptx_b(f.s, f.t, lane / 4, lane % 4, i);
        const RegSlot sl = b_slot(f.s, f.t, p.row, p.col);
        CHECK((sl.lane == lane && sl.reg == i / per_reg && sl.bit == bits * (i % per_reg)));
      }
  }
  // CUTLASS's sm89 sparse emulation: lane 1 of a quad holds B rows 02 03 10 11 18 19 26 27
  // for m16n8k32 f16, and rows 04..07 20..23 36..39 52..55 for m16n8k64 s8.
  CHECK(b_slot(Shape::M16N8K32, MmaType::F16, 18, 0).lane == 1);
  CHECK(b_slot(Shape::M16N8K32, MmaType::F16, 18, 0).reg == 2);
  CHECK(b_slot(Shape::M16N8K64, MmaType::S8, 38, 0).lane == 1);
  CHECK(b_slot(Shape::M16N8K64, MmaType::S8, 38, 0).reg == 2);
  CHECK(b_slot(Shape::M16N8K64, MmaType::S8, 38, 0).bit == 16);
}

TEST_CASE("fragment_round_trip_and_errors", "[functional]") {
  std::mt19937 rng(2);
  for (MmaType t : {MmaType::F16, MmaType::BF16, MmaType::TF32, MmaType::S8}) {
    for (Shape s : {Shape::M16N8K8, Shape::M16N8K16, Shape::M16N8K32, Shape::M16N8K64}) {
      if (!dense_supported(s, t) && !sparse_supported(s, t)) continue;
      const auto b =
          testing::random_matrix(k_of(s), 8, [&] { return testing::random_element(rng, t); });
      CHECK(b_from_fragment(s, t, b_to_fragment(s, t, b)) == b);
      if (!dense_supported(s, t)) continue;
      const auto a =
          testing::random_matrix(16, k_of(s), [&] { return testing::random_element(rng, t); });
      CHECK(a_from_fragment(s, t, a_to_fragment(s, t, a)) == a);
    }
  }
  const auto c = testing::random_matrix(16, 8, [&] { return std::uint32_t(rng()); });
  CHECK(cd_from_fragment(cd_to_fragment(c)) == c);
  CHECK_THROWS_AS(a_to_fragment(Shape::M16N8K16, MmaType::F16, std::vector<std::uint32_t>(10)),
                  InputError);
  CHECK_THROWS_AS(
      a_to_fragment(Shape::M16N8K16, MmaType::F16, std::vector<std::uint32_t>(256, 0x10000)),
      InputError);
}
