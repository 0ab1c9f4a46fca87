#include "validation/calibrate/gemm_evaluator.h"

#include <filesystem>

namespace stcsim::calibrate {

namespace {

std::string key_of(const Overrides& point) {
  std::string k;
  for (const auto& o : point) k += o + "\n";
  return k;
}

}  // namespace

GemmEvaluator::GemmEvaluator(std::string binary, std::vector<validation::SimJob> gemms,
                             std::string scratch_dir, int parallel)
    : binary_(std::move(binary)),
      gemms_(std::move(gemms)),
      scratch_dir_(std::move(scratch_dir)),
      parallel_(parallel) {}

std::vector<validation::SimResult> GemmEvaluator::run_batch(const std::vector<Overrides>& points,
                                                            const std::vector<std::string>& dirs) {
  std::vector<validation::SimJob> jobs;
  for (std::size_t p = 0; p < points.size(); ++p)
    for (const auto& g : gemms_) {
      validation::SimJob job = g;
      job.out_dir = dirs[p] + "/" + g.out_dir;
      for (const auto& o : points[p]) job.args.insert(job.args.end(), {"-p", o});
      jobs.push_back(std::move(job));
    }
  std::vector<validation::SimResult> results =
      validation::run_simulations(binary_, jobs, parallel_);
  for (std::size_t p = 0; p < points.size(); ++p) {
    const auto first = results.begin() + std::ptrdiff_t(p * gemms_.size());
    results_[key_of(points[p])].assign(first, first + std::ptrdiff_t(gemms_.size()));
  }
  points_simulated_ += int(points.size());
  return results;
}

std::vector<std::vector<validation::SimResult>> GemmEvaluator::evaluate(
    const std::vector<Overrides>& points) {
  std::vector<Overrides> fresh;
  std::vector<std::string> dirs;
  for (const auto& p : points) {
    const std::string k = key_of(p);
    bool queued = results_.count(k) != 0;
    for (const auto& f : fresh) queued = queued || key_of(f) == k;
    if (queued) continue;
    fresh.push_back(p);
    dirs.push_back(scratch_dir_ + "/" + std::to_string(points_simulated_ + int(fresh.size()) - 1));
  }
  if (!fresh.empty()) {
    run_batch(fresh, dirs);
    // The runs were read; only the before and after folders are kept.
    std::filesystem::remove_all(scratch_dir_);
  }
  std::vector<std::vector<validation::SimResult>> out;
  for (const auto& p : points) out.push_back(results_.at(key_of(p)));
  return out;
}

std::vector<validation::SimResult> GemmEvaluator::simulate_into(const Overrides& point,
                                                                const std::string& dir) {
  std::filesystem::remove_all(dir);
  return run_batch({point}, {dir});
}

}  // namespace stcsim::calibrate
