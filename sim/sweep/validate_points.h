// Checks a whole sweep before anything runs: every point's configuration is built the
// way `stcsim run` builds it (load_arch, then each override through apply_override), so
// an unknown key or an out-of-range value anywhere in the space is an error up front,
// naming the spec line and the key, instead of a failed point hours later.
#pragma once
#include "sim/sweep/sweep_plan.h"

namespace stcsim::sweep {

// Throws InputError for the first invalid key, value or workload.
void validate_plan(const SweepPlan& plan);

}  // namespace stcsim::sweep
