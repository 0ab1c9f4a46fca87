// Every registered component builds with its defaults (plus the required values a
// preset supplies), and every kind lists at least one implementation.
#include <catch2/catch.hpp>

#include "models/memory/i_dram.h"
#include "models/memory/i_l2_cache.h"
#include "models/power/i_power.h"
#include "models/smem/i_shared_memory.h"
#include "models/tensor_core/i_tensor_core.h"
#include "sim/config/config.h"
#include "sim/core/registry.h"

using namespace stcsim;

namespace {
// Defaults of the implementation, with required keys taken from the a100 preset.
ParamSet defaults_for(const ComponentInfo& info) {
  const Config a100 = load_arch("a100");
  ParamSet p;
  for (const auto& d : info.params) {
    if (d.default_value)
      p.set(d.key, *d.default_value);
    else
      p.set(d.key, a100.section(info.kind).params.values().at(d.key));
  }
  return p;
}
}  // namespace

TEST_CASE("registry_every_component_builds_with_defaults", "[registry]") {
  const auto& cat = ComponentCatalog::instance();
  int built = 0;
  for (const auto& info : cat.all()) {
    INFO(info.kind << "/" << info.impl);
    CHECK(!info.description.empty());
    CHECK(!info.contract.empty());
    for (const auto& d : info.params) {
      CHECK(!d.unit.empty());
      CHECK(!d.description.empty());
    }
    const ParamSet p = defaults_for(info);
    const BuildContext ctx{1410};
    if (info.kind == "tensor_core") {
      REQUIRE(Registry<ITensorCore>::create(info.impl, p, ctx));
      ++built;
    }
    if (info.kind == "smem") {
      REQUIRE(Registry<ISharedMemory>::create(info.impl, p, ctx));
      ++built;
    }
    if (info.kind == "l2") {
      REQUIRE(Registry<IL2Cache>::create(info.impl, p, ctx));
      ++built;
    }
    if (info.kind == "dram") {
      REQUIRE(Registry<IDram>::create(info.impl, p, ctx));
      ++built;
    }
    if (info.kind == "power") {
      REQUIRE(Registry<IPower>::create(info.impl, p, ctx));
      ++built;
    }
  }
  CHECK(built >= 4);
  for (const char* kind : {"gpu", "sm", "tensor_core", "smem", "l2", "dram", "mapping"})
    CHECK(!cat.impls(kind).empty());
}

TEST_CASE("registry_unknown_name_lists_registered", "[registry]") {
  CHECK_THROWS_WITH(Registry<IDram>::create("ddr9", ParamSet{}), Catch::Contains("hbm"));
  CHECK_THROWS_WITH(ComponentCatalog::instance().get("dram", "ddr9"),
                    Catch::Contains("registered: hbm"));
}
