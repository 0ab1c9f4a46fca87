// The bit capture's host side and its offline comparator, on the CPU (no GPU): register
// layouts round-trip, a capture whose D come from one preset matches that preset on every
// record and is caught on a single flipped output bit, the operand categories separate the
// presets (or the capture could not tell them apart), and a torn or foreign file is refused.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "models/numerics/accumulation_model.h"
#include "tests/support/run_stcsim.h"
#include "validation/bitcapture/comparator.h"
#include "validation/bitcapture/operand_gen.h"
#include "validation/bitcapture/plan.h"
#include "validation/bitcapture/wgmma_smem.h"

using namespace stcsim::validation::bits;
namespace fs = std::filesystem;

namespace {
// A small capture: every group, at least one record of each category.
Capture small_capture(const std::string& preset) {
  Capture c = plan_capture(7, 0.02);
  fill_by_model(c, preset);
  return c;
}

const PresetResult& result_for(const std::vector<PresetResult>& r, const std::string& preset) {
  for (const PresetResult& p : r)
    if (p.preset == preset) return p;
  FAIL("no result for preset " << preset);
  return r.front();
}
}  // namespace

TEST_CASE("bitcapture_layouts_round_trip_every_group", "[validation][bitcapture]") {
  const Capture c = plan_capture(3, 0.02);
  REQUIRE(c.groups.size() == 14);  // 4 mma, 6 f16 wgmma, 4 bf16 wgmma groups
  std::mt19937_64 rng(11);
  for (const CaptureGroup& g : c.groups) {
    INFO(g.spec.name());
    for (int cat = 0; cat < kCategories; ++cat) {
      const LogicalOperands ops = make_operands(g.spec, Category(cat), rng);
      std::vector<std::uint32_t> rec(g.spec.record_words(), 0);
      pack_operands(g.spec, ops, rec.data());
      const LogicalOperands back = unpack_operands(g.spec, rec.data());
      CHECK(back.a == ops.a);
      CHECK(back.b == ops.b);
      CHECK(back.c == ops.c);
      // Operands are never all zero (a layout error would hide behind zeros).
      CHECK(std::count(ops.b.begin(), ops.b.end(), 0u) < std::ptrdiff_t(ops.b.size()));
    }
  }
}

TEST_CASE("bitcapture_wgmma_b_image_is_a_permutation", "[validation][bitcapture]") {
  for (int k : {16, 32})
    for (int n : {8, 64, 256}) {
      std::set<int> seen;
      for (int kk = 0; kk < k; ++kk)
        for (int nn = 0; nn < n; ++nn) seen.insert(wgmma_b_half_index(kk, nn, k));
      CHECK(int(seen.size()) == k * n);
      CHECK(*seen.rbegin() == k * n - 1);
    }
}

TEST_CASE("bitcompare_own_preset_matches_every_record", "[validation][bitcapture]") {
  const std::string dir = stcsim::test::temp_dir("bitcapture_own");
  for (const std::string& preset : stcsim::numerics::accumulation_preset_names()) {
    INFO(preset);
    write_capture(dir + "/c.bits", small_capture(preset));
    const Capture back = read_capture(dir + "/c.bits");  // through the file format
    CHECK(back.header.value("synthetic", false));
    const auto r = compare_capture(back, {preset}, 3);
    REQUIRE(r.size() == 1);
    CHECK(r[0].all.records >= 114);  // 4 x 15 mma + 10 x 6 wgmma records
    CHECK(r[0].all.exact_records == r[0].all.records);
    CHECK(r[0].all.exact_elements == r[0].all.elements);
    CHECK(r[0].first.empty());
  }
}

TEST_CASE("bitcompare_catches_one_flipped_output_bit", "[validation][bitcapture]") {
  Capture c = small_capture("h100");
  CaptureGroup& g = c.groups.at(5);  // a wgmma group: the thread-major accumulator layout
  const int record = 2, word = 37;
  g.record(record)[g.spec.d_offset() + word] ^= 1u << 3;
  const auto r = compare_capture(c, {"h100"}, 5);
  const PresetResult& p = result_for(r, "h100");
  CHECK(p.all.records - p.all.exact_records == 1);
  CHECK(p.all.elements - p.all.exact_elements == 1);
  REQUIRE(p.first.size() == 1);
  const Mismatch& m = p.first[0];
  CHECK(m.group == g.spec.name());
  CHECK(m.record == record);
  CHECK(m.elements == 1);
  CHECK((m.captured ^ m.model) == 1u << 3);
  CHECK(m.a_row.size() == std::size_t(g.spec.k()));
  // The element named is the one whose word was flipped.
  std::vector<std::uint32_t> words(g.spec.cd_words(), 0);
  words[word] = 1;
  const auto logical = unpack_accumulator(g.spec, words.data());
  CHECK(logical[std::size_t(m.row) * g.spec.n + m.col] == 1u);
  // And in a bf16 wgmma.sp record.
  Capture b = small_capture("h100");
  CaptureGroup& gb = b.groups.at(12);
  REQUIRE(gb.spec.name() == "wgmma_sp_m64n8k32_bf16");
  gb.record(1)[gb.spec.d_offset() + 5] ^= 1u << 20;
  const PresetResult& pb = result_for(compare_capture(b, {"h100"}, 1), "h100");
  CHECK(pb.all.records - pb.all.exact_records == 1);
  // A flipped bit in an mma.sync record is caught too.
  Capture d = small_capture("a100");
  d.groups.at(0).record(0)[d.groups.at(0).spec.d_offset()] ^= 0x80000000u;
  CHECK(result_for(compare_capture(d, {"a100"}, 1), "a100").all.exact_records ==
        result_for(compare_capture(d, {"a100"}, 1), "a100").all.records - 1);
}

TEST_CASE("bitcapture_categories_separate_the_presets", "[validation][bitcapture]") {
  const auto r =
      compare_capture(small_capture("a100"), stcsim::numerics::accumulation_preset_names(), 0);
  for (const PresetResult& p : r) {
    INFO(p.preset);
    for (const GroupResult& g : p.groups) {
      INFO(g.group);
      // Exact sums: every preset agrees, so a mismatch there can only be a layout error.
      const Tally& exact = g.by_category[int(Category::Exact)];
      CHECK(exact.exact_records == exact.records);
    }
    if (p.preset == "a100") continue;
    // The other presets differ from a100 on the adversarial operands in every group.
    for (const GroupResult& g : p.groups) {
      INFO(g.group);
      const Tally& align = g.by_category[int(Category::Alignment)];
      const Tally& cancel = g.by_category[int(Category::Cancellation)];
      CHECK(align.exact_records + cancel.exact_records < align.records + cancel.records);
    }
  }
}

TEST_CASE("bitcapture_refuses_torn_and_foreign_files", "[validation][bitcapture]") {
  const std::string dir = stcsim::test::temp_dir("bitcapture_bad");
  const std::string f = dir + "/c.bits";
  write_capture(f, small_capture("a100"));
  const auto size = fs::file_size(f);
  fs::resize_file(f, size - 4);
  CHECK_THROWS_WITH(read_capture(f), Catch::Contains("cut short"));
  fs::resize_file(f, size + 4);
  CHECK_THROWS_WITH(read_capture(f), Catch::Contains("after the last group"));
  std::ofstream(dir + "/other.bits") << "{\"schema\": \"stcsim-ubench/1\"}\n";
  CHECK_THROWS_WITH(read_capture(dir + "/other.bits"), Catch::Contains("stcsim-bitcapture/1"));
  // A category word out of range is named, not replayed.
  Capture c = small_capture("a100");
  c.groups[0].record(1)[0] = 99;
  CHECK_THROWS_WITH(compare_capture(c, {"a100"}, 1), Catch::Contains("category 99"));
}
