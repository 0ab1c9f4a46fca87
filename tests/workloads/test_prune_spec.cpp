// The pruning spec grammar and the sparsity labels traces carry.
#include <catch2/catch.hpp>

#include "sim/core/input_error.h"
#include "workloads/pruning/prune_spec.h"

using namespace stcsim;
using namespace stcsim::workloads;

TEST_CASE("prune_spec_parses_every_form", "[prune_spec]") {
  PruneSpec d = PruneSpec::parse("dense");
  CHECK(d.kind == PruneSpec::Kind::Dense);

  for (const char* text : {"2:4", "1:4", "2:8", "4:8", "1:2"}) {
    const PruneSpec p = PruneSpec::parse(text);
    CHECK(p.kind == PruneSpec::Kind::Nm);
    CHECK(p.nm.str() == text);
    CHECK(p.str() == text);
  }

  PruneSpec b = PruneSpec::parse("block:32x32@0.75");
  CHECK(b.kind == PruneSpec::Kind::Block);
  CHECK(b.block_rows == 32);
  CHECK(b.block_cols == 32);
  CHECK(b.target == 0.75);
  CHECK_FALSE(b.global);
  CHECK_FALSE(b.inner_nm);
  CHECK(b.sparsity_label() == "block:32x32");
  CHECK(b.nominal_sparsity() == 0.75);

  PruneSpec c = PruneSpec::parse("block:4x1@0.9+2:4");
  CHECK(c.block_rows == 4);
  CHECK(c.block_cols == 1);
  CHECK(c.inner_nm);
  CHECK(c.nm.str() == "2:4");
  CHECK(c.sparsity_label() == "block:4x1+2:4");
  CHECK(c.nominal_sparsity() == Approx(0.95));

  PruneSpec g = PruneSpec::parse("block:16x16@0.8/global");
  CHECK(g.global);
  CHECK(PruneSpec::parse("block:16x16@0.8/layer").global == false);
  PruneSpec all = PruneSpec::parse("block:4x16@.5+2:4/global");
  CHECK(all.target == 0.5);
  CHECK(all.inner_nm);
  CHECK(all.global);
}

TEST_CASE("prune_spec_str_round_trips", "[prune_spec]") {
  for (const char* text :
       {"dense", "2:4", "block:32x32@0.75", "block:4x1@0.9+2:4", "block:16x16@0.8/global",
        "block:2x1@0+1:4/global", "block:64x64@0.123456789"}) {
    const PruneSpec p = PruneSpec::parse(text);
    const PruneSpec q = PruneSpec::parse(p.str());
    CHECK(q.str() == p.str());
    CHECK(q.target == p.target);
    CHECK(q.kind == p.kind);
    CHECK(q.global == p.global);
  }
  CHECK(PruneSpec::parse("block:4x1@0.9").str() == "block:4x1@0.9");
}

TEST_CASE("prune_spec_rejects_bad_strings_clearly", "[prune_spec]") {
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty"},
      {"sparse", "unknown pattern"},
      {"4:4", "need 0 < N < M"},
      {"3:4", "unsupported"},
      {"2:6", "unsupported"},
      {"2:4:8", "two whole numbers"},
      {"block:32x32", "target sparsity is missing"},
      {"block:32@0.5", "not RxC"},
      {"block:0x4@0.5", "between 1 and"},
      {"block:4xa@0.5", "not a whole number"},
      {"block:4x4@1.0", "below 1"},
      {"block:4x4@1", "below 1"},
      {"block:4x4@-0.1", "not a decimal fraction"},
      {"block:4x4@0.5.5", "not a decimal fraction"},
      {"block:4x4@abc", "not a decimal fraction"},
      {"block:4x4@0.5/everywhere", "not /global or /layer"},
      {"block:4x4@0.5+3:4", "unsupported"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text);
    CHECK_THROWS_WITH(PruneSpec::parse(text),
                      Catch::Contains("invalid pruning spec '" + std::string(text) + "'") &&
                          Catch::Contains(why) && Catch::Contains("block:RxC@SPARSITY"));
  }
}

TEST_CASE("sparsity_labels_parse_and_reject_targets", "[prune_spec]") {
  CHECK(PruneSpec::parse_label("dense").kind == PruneSpec::Kind::Dense);
  CHECK(PruneSpec::parse_label("2:4").nm.str() == "2:4");
  const PruneSpec b = PruneSpec::parse_label("block:4x1+2:4");
  CHECK(b.block_rows == 4);
  CHECK(b.inner_nm);
  CHECK(b.sparsity_label() == "block:4x1+2:4");
  CHECK_THROWS_WITH(PruneSpec::parse_label("block:4x4@0.5"), Catch::Contains("invalid sparsity"));
  CHECK_THROWS_AS(PruneSpec::parse_label("block:4x4/global"), InputError);
  CHECK_THROWS_AS(PruneSpec::parse_label("3:4"), InputError);
  CHECK_THROWS_AS(PruneSpec::parse_label("Dense"), InputError);
}
