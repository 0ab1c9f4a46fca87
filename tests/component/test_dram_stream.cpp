// A DRAM-bound stream reaches the configured bandwidth (bandwidth_gbps x efficiency)
// within 2%, and never exceeds it.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

static nlohmann::json stream(const std::string& arch, const std::string& extra) {
  const auto r = run_command(std::string(DRAM_STREAM_BIN) + " " + arch + " 256 " + extra);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

TEST_CASE("dram_stream_reaches_configured_bandwidth_within_2pct", "[dram]") {
  for (const std::string arch : {"a100", "h100"})
    for (const std::string eff : {"dram.efficiency=1.0", ""}) {
      const auto j = stream(arch, eff);
      INFO(arch << " " << eff << " " << j.dump());
      const double achieved = j["achieved_bytes_per_cycle"],
                   sustained = j["sustained_bytes_per_cycle"];
      CHECK(j["dram_read_bytes"].get<double>() == Approx(j["bytes"].get<double>()));
      CHECK(achieved <= sustained * 1.0001);
      CHECK(achieved >= sustained * 0.98);
    }
}
