#include <catch2/catch.hpp>

#include "models/sparse/nm_pattern.h"
#include "sim/core/input_error.h"

using namespace stcsim;
using namespace stcsim::sparse;
using Catch::Matchers::Contains;

TEST_CASE("nm_pattern_parses_every_supported_pattern", "[sparse]") {
  for (const NmPattern& p : supported_patterns()) {
    CHECK(NmPattern::parse(p.str()) == p);
    CHECK_NOTHROW(p.validate());
  }
  CHECK(NmPattern::parse(" 2 : 4 ") == NmPattern{2, 4});
  CHECK(NmPattern{2, 4}.kept_cols(64) == 32);
  CHECK(NmPattern{1, 4}.kept_cols(64) == 16);
}

TEST_CASE("nm_pattern_rejects_bad_strings_with_clear_text", "[sparse]") {
  for (const char* bad : {"", "2", "2:", ":4", "a:b", "2:4:8", "2/4", "-2:4", "2:4x"}) {
    INFO("'" << bad << "'");
    REQUIRE_THROWS_AS(NmPattern::parse(bad), InputError);
    CHECK_THROWS_WITH(NmPattern::parse(bad), Contains("expected two whole numbers") &&
                                                 Contains(std::string("'") + bad + "'"));
  }
  CHECK_THROWS_WITH(NmPattern::parse("4:2"), Contains("need 0 < N < M"));
  CHECK_THROWS_WITH(NmPattern::parse("0:4"), Contains("need 0 < N < M"));
  CHECK_THROWS_WITH(NmPattern::parse("3:4"),
                    Contains("unsupported N:M pattern 3:4") && Contains("2:4, 1:4, 2:8, 4:8, 1:2"));
  CHECK_THROWS_AS((NmPattern{2, 16}.validate()), InputError);
}
