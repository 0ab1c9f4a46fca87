// mma.sp on fragments (compressed A, metadata, selector) equals the dot products of A's
// kept values (the positions the sparse formats library keeps) with the B rows they name,
// bit for bit, for every form, selector and accumulation preset; s8, and every form under
// ieee_sequential (where a zero product changes nothing), also equal the dense MMA over the
// uncompressed A.
#include <catch2/catch.hpp>
#include <random>

#include "models/functional/fragment_layout.h"
#include "models/functional/mma_sp.h"
#include "models/functional/mma_sync.h"
#include "models/numerics/accumulation_model.h"
#include "models/sparse/mma_sp_layout.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"
#include "tests/functional/direct_reference.h"
#include "tests/functional/failure_dump.h"
#include "tests/functional/random_operands.h"
#include "tests/sparse/random_nm.h"

using namespace stcsim;
using namespace stcsim::functional;
using Catch::Matchers::Contains;

namespace {

numerics::AccumulationModel preset_for(const std::string& name, MmaType t) {
  return t == MmaType::S8 ? numerics::accumulation_preset(name)
                          : numerics::accumulation_preset(name, float_format(t));
}

void check_sparse_matches_dense(Shape s, MmaType t) {
  const sparse::MmaSpGeometry& g = sparse::geometry(sparse_form(s, t));
  const std::string name = "sp" + std::to_string(g.pattern.n) + std::to_string(g.pattern.m) + "_" +
                           type_pair(t) + "_" + to_string(s);
  const int k = k_of(s);
  std::mt19937 rng(std::hash<std::string>{}(name)&0xFFFF);
  auto elem = [&] { return testing::random_element(rng, t); };
  auto acc = [&] { return testing::random_accumulator(rng, t); };
  for (const std::string& preset : numerics::accumulation_preset_names()) {
    const numerics::AccumulationModel model = preset_for(preset, t);
    for (int f = 0; f < g.selectors; ++f) {
      for (int trial = 0; trial < 15; ++trial) {
        const auto a = sparse::testing::random_nm(rng, 16, k, g.pattern, elem);
        const auto b = testing::random_matrix(k, 8, elem);
        const auto c = testing::random_matrix(16, 8, acc);
        const SparseAFragments sa = sparse_a_to_fragments(s, t, a, f);
        const auto d = cd_from_fragment(
            mma_sp(s, t, sa.a, b_to_fragment(s, t, b), cd_to_fragment(c), sa.e, f, model));
        // The kept positions as the formats library chooses them, then their products only.
        const sparse::CompressedNm kept = sparse::compress(a, 16, k, g.pattern);
        std::vector<int> positions;
        for (int i = 0; i < 16; ++i)
          for (int x = 0; x < kept.kept_cols(); ++x)
            positions.push_back(x / g.pattern.n * g.pattern.m +
                                kept.indices[std::size_t(i) * kept.kept_cols() + x]);
        const auto a_dense = sparse::uncompress(kept);
        const bool exact_zeros = t == MmaType::S8 || preset == "ieee_sequential";
        const auto want =
            t == MmaType::S8
                ? testing::direct_reference(t, 16, 8, k, a_dense, b, c, model)
                : testing::direct_sparse_reference(t, 16, 8, k, a, positions, b, c, model);
        bool ok = a_dense == a && d == want;
        if (ok && exact_zeros && dense_supported(s, t))  // the dense instruction of that K
          ok = cd_from_fragment(mma_sync(s, t, a_to_fragment(s, t, a_dense), b_to_fragment(s, t, b),
                                         cd_to_fragment(c), model)) == d;
        if (!ok) {
          const std::string file =
              testing::dump_failure(name,
                                    "preset " + preset + ", selector " + std::to_string(f) +
                                        ", trial " + std::to_string(trial),
                                    {{"A (logical)", 16, k, a},
                                     {"A registers (lane x reg)", 32, g.a_regs, sa.a.regs},
                                     {"metadata e (lane)", 32, 1, sa.e.regs},
                                     {"B", k, 8, b},
                                     {"C", 16, 8, c},
                                     {"D (mma_sp)", 16, 8, d},
                                     {"D expected (kept products' mma_dot)", 16, 8, want}});
          FAIL(name << " differs from its kept products' dot under preset " << preset
                    << ", selector " << f << "; operands in " << file);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("sp24_f16_f32_m16n8k16_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K16, MmaType::F16);
}
TEST_CASE("sp24_bf16_f32_m16n8k16_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K16, MmaType::BF16);
}
TEST_CASE("sp24_f16_f32_m16n8k32_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K32, MmaType::F16);
}
TEST_CASE("sp24_bf16_f32_m16n8k32_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K32, MmaType::BF16);
}
TEST_CASE("sp12_tf32_f32_m16n8k8_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K8, MmaType::TF32);
}
TEST_CASE("sp12_tf32_f32_m16n8k16_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K16, MmaType::TF32);
}
TEST_CASE("sp24_s8_s32_m16n8k32_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K32, MmaType::S8);
}
TEST_CASE("sp24_s8_s32_m16n8k64_matches_dense", "[functional]") {
  check_sparse_matches_dense(Shape::M16N8K64, MmaType::S8);
}

// Plain mma.sp takes a group's two kept values in either order: swapping the halves of
// every A register and the two indices of every nibble gives the same D; the ordered
// form rejects the swapped metadata naming the lane and nibble.
TEST_CASE("sp24_f16_f32_m16n8k32_unordered_metadata_same_result", "[functional]") {
  const Shape s = Shape::M16N8K32;
  const MmaType t = MmaType::F16;
  const sparse::MmaSpForm form = sparse_form(s, t);
  std::mt19937 rng(99);
  auto elem = [&] { return testing::random_element(rng, t); };
  // Every group full (two distinct nonzeros), so no swapped nibble repeats a position.
  std::vector<std::uint32_t> a(16 * 32, 0);
  for (int r = 0; r < 16; ++r)
    for (int q = 0; q < 8; ++q) {
      const int p0 = rng() % 3, p1 = p0 + 1 + rng() % (3 - p0);
      a[r * 32 + q * 4 + p0] = elem();
      a[r * 32 + q * 4 + p1] = elem();
    }
  const auto b = testing::random_matrix(32, 8, elem);
  const auto c = testing::random_matrix(16, 8, [&] { return testing::random_accumulator(rng, t); });
  const auto model = numerics::accumulation_preset("a100", numerics::FloatFormat::FP16);
  const int f = 1;
  const SparseAFragments sa = sparse_a_to_fragments(s, t, a, f);
  SparseAFragments swapped = sa;
  for (int r = 0; r < 16; ++r)
    for (int q = 0; q < 8; ++q) {
      const sparse::RegSlot as = sparse::a_slot(form, r, 2 * q);
      std::uint32_t& reg = swapped.a.at(as.lane, as.reg);
      reg = reg >> 16 | reg << 16;
      const sparse::RegSlot ms = sparse::metadata_slot(form, r, q, f);
      const std::uint32_t nib = sa.e.regs[ms.lane] >> ms.bit & 0xF;
      const std::uint32_t flipped = (nib >> 2) | (nib & 3) << 2;
      swapped.e.regs[ms.lane] = (swapped.e.regs[ms.lane] & ~(0xFu << ms.bit)) | flipped << ms.bit;
    }
  const WarpFragment bf = b_to_fragment(s, t, b), cf = cd_to_fragment(c);
  const WarpFragment d = mma_sp(s, t, sa.a, bf, cf, sa.e, f, model);
  CHECK(mma_sp(s, t, swapped.a, bf, cf, swapped.e, f, model, sparse::MetadataOrder::Unordered) ==
        d);
  CHECK_THROWS_WITH(mma_sp(s, t, swapped.a, bf, cf, swapped.e, f, model),
                    Contains("lane 2") && Contains("increase from the LSB"));
}

TEST_CASE("mma_sp_reads_only_the_selected_lanes_metadata", "[functional]") {
  std::mt19937 rng(7);
  for (MmaType t : {MmaType::F16, MmaType::TF32, MmaType::S8}) {
    const Shape s = t == MmaType::F16    ? Shape::M16N8K16
                    : t == MmaType::TF32 ? Shape::M16N8K16
                                         : Shape::M16N8K32;
    const sparse::MmaSpGeometry& g = sparse::geometry(sparse_form(s, t));
    auto elem = [&] { return testing::random_element(rng, t); };
    const auto a = sparse::testing::random_nm(rng, 16, k_of(s), g.pattern, elem);
    const WarpFragment bf = b_to_fragment(s, t, testing::random_matrix(k_of(s), 8, elem));
    const WarpFragment cf = cd_to_fragment(
        testing::random_matrix(16, 8, [&] { return testing::random_accumulator(rng, t); }));
    const auto model = preset_for("h100", t);
    for (int f = 0; f < g.selectors; ++f) {
      SparseAFragments sa = sparse_a_to_fragments(s, t, a, f);
      const WarpFragment d = mma_sp(s, t, sa.a, bf, cf, sa.e, f, model);
      for (int lane = 0; lane < 32; ++lane)
        if (sa.e.regs[lane] == 0) sa.e.regs[lane] = 0xFFFFFFFF;  // invalid everywhere
      INFO(to_string(t) << " selector " << f);
      CHECK(mma_sp(s, t, sa.a, bf, cf, sa.e, f, model) == d);
    }
  }
}

TEST_CASE("mma_sp_rejects_unsupported_forms_and_selectors", "[functional]") {
  const auto model = numerics::accumulation_preset("a100");
  CHECK_THROWS_WITH(mma_sp(Shape::M16N8K8, MmaType::F16, WarpFragment(1), WarpFragment(1),
                           WarpFragment(4), WarpFragment(1), 0, model),
                    Contains("no mma.sp m16n8k8 for f16"));
  std::vector<std::uint32_t> a(16 * 64, 0);
  a[0] = 1;
  CHECK_THROWS_WITH(sparse_a_to_fragments(Shape::M16N8K64, MmaType::S8, a, 1),
                    Contains("selector 1 out of range 0..0"));
  a[1] = a[2] = 1;  // three nonzeros in group 0
  CHECK_THROWS_WITH(sparse_a_to_fragments(Shape::M16N8K64, MmaType::S8, a, 0),
                    Contains("row 0, group 0") && Contains("3 nonzero"));
}

// The sparse tensor core multiplies A's kept values by the B rows their metadata names, so a
// B element at a pruned position is never read, while one at a kept zero is (0 x inf = NaN).
// Derived by hand: row 0 of A keeps 1.0 at k = 0, 1 (group 0, so k = 2, 3 are pruned); its
// other groups are empty and keep their zeros at positions 2, 3 (k = 6, 7 for group 1).
// The capture's mma.sp records with inf and NaN operands match this (docs/notes.md).
TEST_CASE("mma_sp_never_reads_b_at_a_pruned_position", "[functional]") {
  const Shape s = Shape::M16N8K32;
  const MmaType t = MmaType::F16;
  std::vector<std::uint32_t> a(16 * 32, 0), b(32 * 8, 0x3C00), c(16 * 8, 0);
  a[0] = a[1] = 0x3C00;
  b[2 * 8 + 0] = 0x7C00;  // +inf at k = 2, column 0: pruned in row 0
  b[6 * 8 + 1] = 0x7C00;  // +inf at k = 6, column 1: a kept zero of row 0
  const SparseAFragments sa = sparse_a_to_fragments(s, t, a, 0);
  for (const std::string& preset : numerics::accumulation_preset_names()) {
    INFO(preset);
    const auto d = cd_from_fragment(mma_sp(s, t, sa.a, b_to_fragment(s, t, b), cd_to_fragment(c),
                                           sa.e, 0, preset_for(preset, t)));
    CHECK(d[0] == 0x40000000u);  // 1 + 1 = 2: the inf is not read
    CHECK(d[1] == 0x7FFFFFFFu);  // 0 x inf: the canonical NaN
    // Row 1 is all zeros and keeps them at k = 2, 3 of group 0, so it meets column 0's inf.
    CHECK(d[8] == 0x7FFFFFFFu);
    CHECK(d[10] == 0u);  // column 2 is finite everywhere: +0
  }
}
