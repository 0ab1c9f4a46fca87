// Simulates the measured GEMMs at points of a fit: each point is a list of `-p`
// overrides (`l2.hit_latency_cycles=250`), and every GEMM runs as a child `stcsim run`
// with its own arguments plus those (SystemC allows one simulation per process). A point
// is simulated once: results are kept by the overrides' text, which is exactly what the
// children were given, so the full fit and the leave-one-out refits share their points.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "validation/compare/simulate.h"

namespace stcsim::calibrate {

using Overrides = std::vector<std::string>;

class GemmEvaluator {
 public:
  // `gemms`: each measured GEMM's `stcsim run` arguments (validation::simulation_args)
  // and a folder name for its run; `scratch_dir` holds the runs of a batch until they
  // are read; `parallel` children run at once.
  GemmEvaluator(std::string binary, std::vector<validation::SimJob> gemms, std::string scratch_dir,
                int parallel);

  // Every GEMM's result at each point, in the order given; the points not simulated yet
  // run in one batch of children, side by side.
  std::vector<std::vector<validation::SimResult>> evaluate(const std::vector<Overrides>& points);

  // Simulates one point into dir/<gemm folder> and keeps the runs there (the before and
  // after folders of the report); remembered like any other point.
  std::vector<validation::SimResult> simulate_into(const Overrides& point, const std::string& dir);

  int points_simulated() const { return points_simulated_; }

 private:
  std::vector<validation::SimResult> run_batch(const std::vector<Overrides>& points,
                                               const std::vector<std::string>& dirs);
  std::string binary_;
  std::vector<validation::SimJob> gemms_;
  std::string scratch_dir_;
  int parallel_;
  std::map<std::string, std::vector<validation::SimResult>> results_;  // by the joined overrides
  int points_simulated_ = 0;
};

}  // namespace stcsim::calibrate
