// The partitioned L2 (A100): an SM's hit in its own partition costs the hit latency, one
// in the other partition the far extra latency more, and far bytes queue on the
// crossbar. Figures derived by hand from l2_partition_sim's spec: hit latency 100,
// far extra 60, 64 B/cycle slices and links, a 16 B/cycle crossbar, 128-byte lines.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

static double latency(const std::string& which) {
  const auto r = run_command(std::string(L2_PARTITION_BIN) + " " + which);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out)["latency"].get<double>();
}

TEST_CASE("l2_partition_near_hit_costs_the_hit_latency", "[l2][partition]") {
  // The data leaves the L2 after the hit latency and crosses the link: 100 + 128/64.
  CHECK(latency("near_hit") == 102);
  // One partition: every slice is near, the same figure.
  CHECK(latency("unpartitioned") == 102);
}

TEST_CASE("l2_partition_far_hit_adds_the_far_latency", "[l2][partition]") {
  // 100 + 60 + 128/64 on the link; the crossbar's 128/16 = 8 cycles overlap the return.
  CHECK(latency("far_hit") == 162);
}

TEST_CASE("l2_partition_far_burst_queues_on_the_crossbar", "[l2][partition]") {
  // 32 lines of one far slice: the request reaches it at 30, the slice serves 4096 B by
  // 30 + 64 = 94, the crossbar carries them by 94 + 4096/16 = 350, and they reach the
  // SM 30 + 50 later: 430 (the link alone would take 160 + 64 = 224).
  CHECK(latency("far_burst") == 430);
}
