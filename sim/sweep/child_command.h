// The `stcsim run` command line of one point and workload: the base, the fixed and
// varied overrides as -p flags, the run options, the workload. The same line (less
// --out) is stored with the result, so any point can be rerun by hand.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/sweep_plan.h"

namespace stcsim::sweep {

std::vector<std::string> child_argv(const SweepPlan& plan, const Point& p, const WorkloadSpec& w,
                                    const std::string& exe, const std::string& out_dir);
// argv as a shell would take it, with "stcsim" for argv[0] and without --out.
std::string display_command(const std::vector<std::string>& argv);

}  // namespace stcsim::sweep
