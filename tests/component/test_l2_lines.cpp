// An L1's missed sectors handed to the L2 as lines (MemRequest::lines) give exactly what
// the same sectors gave as address runs: the same lookups' outcome (sectors, misses,
// DRAM traffic, dirty write-backs) and the same timing, for an L2 of the L1's geometry
// and for L2s of other line sizes, where the lines are cut again.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

static nlohmann::json figures(const std::string& form, int line_bytes) {
  const auto r =
      run_command(std::string(L2_LINES_BIN) + " " + form + " " + std::to_string(line_bytes));
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

TEST_CASE("l2_lines_equal_the_same_sectors_as_runs", "[l2][memory]") {
  const int line_bytes = GENERATE(128, 64, 256);
  INFO("L2 line bytes " << line_bytes);
  const auto lines = figures("lines", line_bytes), runs = figures("runs", line_bytes);
  CHECK(lines == runs);
  // The stream exercises what the equality is about.
  CHECK(lines["l2_read_miss_sectors"].get<double>() > 0);
  CHECK(lines["l2_read_miss_sectors"].get<double>() < lines["l2_read_sectors"].get<double>());
  CHECK(lines["dram_write_bytes"].get<double>() > 0);
}
