// Implementations of kind "tma":
//   none      no tensor memory accelerator (pre-Hopper SMs): kernels that copy tiles with
//             TMA cannot run.
//   tma_unit  one in-order unit per SM that spends `issue_cycles_per_box` on each box
//             (descriptor fetch, address generation of the box's rows); the requests it
//             makes are then timed by the memory system like any other. A waiting warp
//             sees the mbarrier flip `mbarrier_wake_cycles` after the last byte lands.
#pragma once
#include "models/common/timeline.h"
#include "models/tma/i_tma.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params().
struct TmaUnitSpec {
  double issue_cycles_per_box = 0;
  int mbarrier_wake_cycles = 0;
  static std::vector<ParamDecl> params();
  static TmaUnitSpec from(const ParamSet& p);
};

class TmaUnit : public ITma {
 public:
  explicit TmaUnit(const TmaUnitSpec& s) : spec_(s) {}
  bool present() const override { return true; }
  Cycle issue(Cycle ready, int boxes) override {
    const double d = spec_.issue_cycles_per_box * boxes;
    return engine_.reserve(ready, d) + d;
  }
  Cycle observed(Cycle landed) const override { return landed + spec_.mbarrier_wake_cycles; }
  std::unique_ptr<ITma> clone_empty() const override { return std::make_unique<TmaUnit>(spec_); }

 private:
  TmaUnitSpec spec_;
  Timeline engine_;
};

class NoTma : public ITma {
 public:
  bool present() const override { return false; }
  Cycle issue(Cycle ready, int) override { return ready; }
  Cycle observed(Cycle landed) const override { return landed; }
  std::unique_ptr<ITma> clone_empty() const override { return std::make_unique<NoTma>(); }
};

}  // namespace stcsim
