// Kind "power": the board's energy and the SM clock its power controller settles at.
//
// Contract: `present()` says whether the GPU has a power model (without one no power
// stats are written and an op's seconds are its cycles at gpu.clock_mhz). `settle(a)` takes
// what an op did, simulated at the preset clock (gpu.clock_mhz, which the
// implementation is built with), and returns its
// energy by component, its average power and the SM clock it runs at in steady state:
// benchmarks time an op long after the controller has settled, so the settled clock is
// what a measurement sees. It is a pure function of its inputs.
#pragma once
#include <memory>

#include "models/power/power_report.h"

namespace stcsim {

class IPower {
 public:
  virtual ~IPower() = default;
  virtual bool present() const = 0;
  virtual PowerReport settle(const PowerActivity& a) const = 0;
};

}  // namespace stcsim
