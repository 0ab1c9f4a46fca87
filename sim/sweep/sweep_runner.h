// Runs the points of a sweep, each workload of a point as its own `stcsim run` child,
// `jobs` points at a time. A finished point is written atomically before the next one
// starts in its slot, so the sweep can be killed at any moment and resumed by running
// the same command: points already on disk are skipped. A point whose child fails
// records the error and the sweep goes on.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "sim/sweep/sweep_plan.h"

namespace stcsim::sweep {

struct RunOptions {
  std::string out;              // the sweep folder
  int jobs = 1;                 // children at a time
  Shard shard;                  // which slice of the points
  bool retry_failed = false;    // rerun points whose file records a failure
  double timeout_s = 0;         // per workload run; 0: none
  bool progress = true;         // the progress line on stderr
  std::string exe;              // the stcsim to run; empty: this executable
  std::set<std::int64_t> only;  // non-empty: only these points of the shard (sweep --screen)
};

struct RunSummary {
  std::int64_t selected = 0;  // points in this shard
  std::int64_t skipped = 0;   // already finished before this run
  std::int64_t ran = 0;       // finished by this run
  std::int64_t failed = 0;    // failed points in the shard after this run
  bool interrupted = false;   // stopped by SIGINT/SIGTERM
  double wall_seconds = 0;
};

// Runs what is left of the shard and rewrites the tables. Throws InputError for an
// unusable output folder (locked, or holding another sweep).
RunSummary run_sweep(const SweepPlan& plan, const RunOptions& opt);

}  // namespace stcsim::sweep
