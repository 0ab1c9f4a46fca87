// The simulator-versus-GPU comparison: per GEMM predicted and measured time and error;
// MAPE, Pearson and Spearman over our kernels (the schedules the simulator runs exactly)
// and, apart, over vendor libraries (simulated with the simulator's own mapping choice);
// predicted versus measured 2:4 speedups; the numerics agreement the harness recorded.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/compare/measurements.h"
#include "validation/compare/simulate.h"

namespace stcsim::validation {

struct ComparedGemm {
  MeasuredGemm measured;
  bool simulated = false;
  std::string why_not;  // when !simulated
  SimResult sim;
  double predicted_us() const { return sim.seconds * 1e6; }
  double error_percent() const {
    return 100.0 * (predicted_us() - measured.time_us) / measured.time_us;
  }
};

struct Agreement {
  int n = 0;
  double mape_percent = 0, pearson = 0, spearman = 0;  // NaN when undefined (n < 2, constant)
};

struct SpeedupRow {
  std::string name, shape, dense_kernel, sparse_kernel;
  double measured = 0, predicted = 0;
  double abs_error() const {
    return predicted > measured ? predicted - measured : measured - predicted;
  }
};

// The speedup error summarised over the pairs of one sparse kernel ("all": every pair).
struct SpeedupError {
  std::string sparse_kernel;
  int n = 0;
  double mean = 0, max = 0;
};
std::vector<SpeedupError> speedup_errors(const std::vector<SpeedupRow>& rows);

struct NumericsRow {
  std::string name, shape, kernel;
  PresetAgreementRecord arch_preset;  // under the arch's tensor_core.numerics
  std::string best_preset;            // most exact elements
  int best_exact = 0;
};

struct ValidationReport {
  std::string arch, device, numerics_preset;
  std::string time = "cold";  // validate --time: which measured time the rows compare
  bool synthetic = false;
  std::vector<std::string> files;
  std::vector<ComparedGemm> rows;
  Agreement ours, vendor;
  std::vector<SpeedupRow> speedups;  // stcsim_sp24 over stcsim_dense, cusparselt over cuBLAS(Lt),
                                     // torch 2:4 over F.linear
  std::vector<NumericsRow> numerics;
  bool all_checks_passed = true;
};

// Every measured GEMM of `files` as a row, with why not when the simulator cannot run it,
// and one job per simulable row (its folder `dir` + sim_folder_name); job j is the run of
// rows[job_rows[j]]. What validate and calibrate both simulate.
struct MeasuredJobs {
  std::vector<ComparedGemm> rows;
  std::vector<SimJob> jobs;
  std::vector<std::size_t> job_rows;
};
MeasuredJobs measured_jobs(const std::vector<MeasurementFile>& files, const std::string& arch,
                           bool preset_clock, const std::vector<std::string>& overrides,
                           const std::string& dir);

Agreement agreement(const std::vector<ComparedGemm>& rows, bool ours);
// Each simulated 2:4 run with its dense twin (same name, shape and dtype), by row index:
// stcsim_sp24 over stcsim_dense, cusparselt over cuBLASLt (else cuBLAS), torch 2:4 over
// F.linear. The speedup is the dense time over the 2:4 time.
struct SpeedupPair {
  std::size_t sparse = 0, dense = 0;
};
std::vector<SpeedupPair> speedup_pairs(const std::vector<ComparedGemm>& rows);
// Fills the statistics, speedups and numerics from rows already simulated.
void summarize(ValidationReport& r);
std::string format_report(const ValidationReport& r);
nlohmann::json report_json(const ValidationReport& r);

}  // namespace stcsim::validation
