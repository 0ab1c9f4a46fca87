// `stcsim sweep --screen N`: every point run in analytic mode first (stcsim run --mode
// analytic: microseconds per GEMM), then only the N fastest, by the geometric mean over
// the workloads of their speedup against the reference point, simulated in cycle mode.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "nlohmann/json.hpp"
#include "sim/sweep/sweep_spec.h"

namespace stcsim::sweep {

// The spec to screen with: `spec` in analytic mode. InputError when the spec varies
// `mode` itself (the screen sets it).
SweepSpec screening_spec(const SweepSpec& spec);

// The ids of the `n` points of a results table (results.json) with the highest geometric
// mean of speedup_vs_ref over their workloads (points with a failed workload rank last),
// and the reference point `reference` always.
std::set<std::int64_t> best_points(const nlohmann::json& results, int n, std::int64_t reference);

}  // namespace stcsim::sweep
