// mapping.policy cutlass_sm90 end to end: an h200 run reports the CUTLASS sm90 entry it
// ran (tile, cluster, schedule) in its stats; an a100 run is refused, naming the preset.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("cutlass_sm90_policy_runs_a_listed_entry_on_h200", "[cli][mapping][sm90]") {
  const auto s =
      run_stats("--arch h200 --dtype bf16 --gemm 512x3072x768 -p mapping.policy=cutlass_sm90");
  const auto& map = s["ops"][0]["mapping"];
  INFO(map.dump());
  const std::string by = map["chosen_by"].get<std::string>();
  CHECK(by.rfind("cutlass_sm90 ", 0) == 0);
  CHECK(by.find("cluster 2x1x1 KernelTmaWarpSpecialized") != std::string::npos);
  CHECK(map["cluster_m"] == 2);
  CHECK(map["cta_k"] == 64);  // CUTLASS's K for 16-bit types
  const std::string schedule = map["schedule"].get<std::string>();
  CHECK((schedule == "cooperative" || schedule == "pingpong"));
  CHECK(s["ops"][0]["cycles"].get<double>() > 0);
  // The resolved config beside the stats says which policy chose it.
  CHECK(s["config"]["hardware"]["mapping"]["params"]["policy"]["value"] == "cutlass_sm90");
}

TEST_CASE("cutlass_sm90_policy_refused_on_a100_naming_the_preset", "[cli][mapping][sm90]") {
  const auto r = run_stcsim("run --arch a100 --gemm 512x512x512 -p mapping.policy=cutlass_sm90 -q");
  CHECK(r.status == 2);
  CHECK(r.err.find("mapping.policy cutlass_sm90") != std::string::npos);
  CHECK(r.err.find("preset 'a100'") != std::string::npos);
}
