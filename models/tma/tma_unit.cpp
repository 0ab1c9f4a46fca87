#include "models/tma/tma_unit.h"

#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> TmaUnitSpec::params() {
  const TmaUnitSpec d;  // defaults: the struct's initialisers (tma_unit.h)
  return {
      float_param(
          "issue_cycles_per_box", "cycles", d.issue_cycles_per_box, 0, 1e4,
          "cycles the unit spends on one box of a bulk tensor copy before its requests enter "
          "the memory system"),
      int_param("mbarrier_wake_cycles", "cycles", d.mbarrier_wake_cycles, 0, 1e4,
                "cycles from the last byte landing in shared memory to a waiting warp seeing the "
                "mbarrier's phase flip")};
}

TmaUnitSpec TmaUnitSpec::from(const ParamSet& p) {
  return {p.get_float("issue_cycles_per_box"), int(p.get_int("mbarrier_wake_cycles"))};
}

static const char* kContract =
    "accepts descriptor-based bulk tensor copies (one box each), says when their requests enter "
    "the "
    "memory system, and when a waiting warp sees the mbarrier complete";

static Registrar<ITma> reg_none{
    ComponentInfo{
        "tma", "none", kContract, "no tensor memory accelerator (pre-Hopper SMs)", {}, true},
    [](const ParamSet&, const BuildContext&) { return std::make_unique<NoTma>(); }};

static Registrar<ITma> reg_tma_unit{
    ComponentInfo{"tma", "tma_unit", kContract,
                  "one in-order tensor memory accelerator per SM with a per-box issue cost and an "
                  "mbarrier wake latency",
                  TmaUnitSpec::params(), false},
    [](const ParamSet& p, const BuildContext&) {
      return std::make_unique<TmaUnit>(TmaUnitSpec::from(p));
    }};

}  // namespace stcsim
