// `stcsim calibrate`'s fit: reads measurement and microbenchmark files (the formats
// `stcsim validate` reads), simulates their GEMMs and figures as validate does (same
// arguments, observed SM clock; one `stcsim ubench` run for the figures),
// and searches the parameters' box for the values that minimise fit_error.h's objective;
// then, unless told not to, refits with each GEMM (or each dense/2:4 pair, as one unit)
// left out, from the full fit's optimum, and predicts the unit left out: the gap between
// the in-sample and the leave-one-out error is how much the fit has learnt the data
// rather than the hardware.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "validation/calibrate/fit_error.h"
#include "validation/calibrate/fit_space.h"
#include "validation/compare/report.h"
#include "validation/compare/ubench_compare.h"

namespace stcsim::calibrate {

struct CalibrationOptions {
  std::string measurements;               // a file or a directory of them
  std::string arch;                       // a built-in preset: the calibrated preset's base
  std::vector<std::string> params;        // "section.key" or "section.key=lo:hi"
  std::vector<std::string> overrides;     // fixed -p section.key=value, in every run
  std::string out;                        // sim/before, sim/after go under it
  std::string stcsim = "/proc/self/exe";  // the binary the children run
  int jobs = 1;
  int max_evals = 0;  // per fit; 0: 60 per parameter
  bool leave_one_out = true;
  bool preset_clock = false;  // simulate at the preset's clock, not the observed one
  bool quiet = false;         // no progress
};

// One leave-one-out refit.
struct LeaveOneOutFit {
  std::vector<std::size_t> left_out;  // row indexes
  std::vector<double> values;         // the refit's parameter values
  FitError training;                  // on the GEMMs it was fitted to
  int evals = 0;
};

struct CalibrationResult {
  std::string arch, device;
  bool synthetic = false;
  std::vector<std::string> files;
  std::vector<FitParameter> params;
  std::vector<double> fitted;  // the full fit's values, in params' order
  int evals = 0;               // distinct points of the full fit
  bool converged = false;      // the full fit's step shrank to its end (else: budget)
  int max_evals = 0;
  // Every measured GEMM, simulated at the start and at the optimum (the same rows, only
  // the simulation differs); `fit_rows` are those the simulator could run.
  std::vector<validation::ComparedGemm> before, after;
  std::vector<std::size_t> fit_rows;
  // Microbenchmark figures (stcsim-ubench/1 files among the measurements), fitted beside
  // the GEMMs through `stcsim ubench`: each counts in the MAPE as one more row, index
  // before.size() + i; `figure_rows` are the rows of those the simulation yields.
  std::vector<validation::UbenchRow> figures_before, figures_after;
  std::vector<std::size_t> figure_rows;
  // Every row the objective covers: fit_rows, then figure_rows.
  std::vector<std::size_t> objective_rows() const {
    std::vector<std::size_t> rows = fit_rows;
    rows.insert(rows.end(), figure_rows.begin(), figure_rows.end());
    return rows;
  }
  std::vector<validation::SpeedupPair> pairs;
  FitError error_before, error_after;
  // Leave-one-out: per row (GEMMs, then figures), its time or figure predicted by the
  // refit that left it out (0 where none); the error of those predictions; the refits.
  bool leave_one_out = false;
  std::string leave_one_out_skipped;  // why not, when it was asked for
  std::vector<double> loo_predicted_us;
  FitError error_loo;
  std::vector<LeaveOneOutFit> loo_fits;
  int points_simulated = 0;  // distinct points simulated, over all fits
};

// Throws InputError for bad parameters, files without a simulable GEMM, a failed run.
CalibrationResult run_calibration(const CalibrationOptions& options, std::ostream& progress);

}  // namespace stcsim::calibrate
