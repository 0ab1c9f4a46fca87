// Names from user files (a sweep's name, a workload, a measurement file's device) go into
// gnuplot scripts that stcsim runs: they must stay text. A newline would end the command
// and run the rest of the name as gnuplot (`system '...'`); a backquote in a
// double-quoted string would run a shell command.
#include <catch2/catch.hpp>

#include "sim/sweep/gnuplot_script.h"

using namespace stcsim::sweep;

TEST_CASE("gnuplot_strings_keep_hostile_names_inside_the_literal", "[sweep][report]") {
  const std::string evil = "x\nsystem 'touch PWN'\n#";
  const std::string sq = gp_str(evil);
  CHECK(sq.find('\n') == std::string::npos);
  CHECK(sq == "'x system ''touch PWN'' #'");
  const std::string dq = gp_dq(evil);
  CHECK(dq.find('\n') == std::string::npos);
  CHECK(dq == "x\\nsystem 'touch PWN'\\n#");
  CHECK(gp_dq("a`touch PWN`b\"c\\d\r") == "a'touch PWN'b\\\"c\\\\d ");
  CHECK(gp_str("it's\t1") == "'it''s 1'");
}
