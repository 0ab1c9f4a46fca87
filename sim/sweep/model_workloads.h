// A sweep's {model: NAME} workloads, traced once per sweep run: the model is loaded,
// lowered and pruned as `stcsim trace` does it (a shapes-only model pruned in blocks on
// seeded synthetic weights) and written to DIR/<name>.trace, which every point then runs
// with `stcsim run --trace`. Tracing is deterministic, so a resumed sweep writes the same
// file and its plan (which records the trace's fingerprint) still matches.
#pragma once
#include <string>

#include "sim/sweep/sweep_spec.h"

namespace stcsim::sweep {

// Traces every model workload of `spec` into `dir` (created; a scratch folder) and points
// its `trace` at the file, named by what defines it (<name>-<hash>.trace). InputError
// naming the spec's line for a model that does not load or prune.
void trace_model_workloads(SweepSpec& spec, const std::string& dir);

// Once the sweep is validated: copies each model workload's trace (and payload) into
// `dir` (the sweep folder's workloads/) unless a file of that name is there already (the
// same definition, so the same trace), and points its `trace` there.
void install_model_traces(SweepSpec& spec, const std::string& dir);

}  // namespace stcsim::sweep
