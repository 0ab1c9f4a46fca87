// Runs one simulation (SystemC allows one per process): builds the GPU from a
// resolved config, runs the GEMMs, returns per-op and total results.
#pragma once
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/gpu/l2_policy.h"
#include "models/kernels/op_result.h"
#include "sim/config/config.h"

namespace stcsim {

class StagedFiles;

struct RunRequest {
  Config config;
  std::vector<GemmOp> ops;
  std::string vcd_path;                  // empty: no waveform (file: vcd_file_name)
  std::vector<std::string> vcd_signals;  // default: all
  bool compare_dense = true;             // run each sparse GEMM's dense twin too
  bool functional = false;               // also compute output values (functional_run.h)
  std::uint64_t seed = 1;                // operand values in functional mode
  std::string out_dir;                   // where functional mode writes .npy files
  bool memoize = true;                   // reuse an identical GEMM's result (Gpu::set_memoize)
  bool analytic = false;                 // --mode analytic (Gpu::set_analytic)
  bool steady_state = false;             // --mode steady (Gpu::set_steady_state)
  L2Policy l2 = L2Policy::kFlush;        // the L2 between GEMMs (models/gpu/l2_policy.h)
  // After each simulated or memoized GEMM, dense twins included: (done, total). Empty:
  // nothing is called.
  std::function<void(std::size_t done, std::size_t total)> on_op_done;
  // Functional mode's .npy files are staged here, for the caller to commit with stats.json
  // as one set; null: each is written on its own.
  StagedFiles* staged = nullptr;
};

struct RunResult {
  std::vector<OpResult> ops;
  OpResult total;
  // With ops of more than one variant (GemmOp::variant): each variant's total, named
  // after it, in the order the variants first appear; empty otherwise.
  std::vector<OpResult> variants;
  double wall_seconds = 0;
  std::vector<nlohmann::json> functional;  // per op, in functional mode
};

// Throws InputError for anything wrong with the request, before simulating.
RunResult run_simulation(const RunRequest& req);

// Totals over ops: summed time and work, cycle-weighted utilisations.
OpResult total_of(const std::vector<OpResult>& ops);

// Fill a sparse result's comparison with its dense twin: speedup and its three factors
// (REFERENCE: R3 = W_dense/W_sparse x E_sparse/E_dense x P_sparse/P_dense, with work in
// real multiplies, P the tensor cores' peak rate of real multiplies, E = achieved / P).
void compare_with_dense(OpResult& sparse, const OpResult& dense);

// The file SystemC writes for --vcd NAME: NAME, with .vcd added when it lacks it.
inline std::string vcd_file_name(const std::string& name) {
  const bool has_ext = name.size() > 4 && name.compare(name.size() - 4, 4, ".vcd") == 0;
  return has_ext ? name : name + ".vcd";
}

}  // namespace stcsim
