#include "validation/calibrate/calibration_run.h"

#include <algorithm>
#include <cstdio>

#include "sim/core/input_error.h"
#include "validation/calibrate/gemm_evaluator.h"
#include "validation/calibrate/optimizer.h"
#include "validation/calibrate/residual_report.h"
#include "validation/compare/measurements.h"
#include "validation/compare/simulate.h"

namespace stcsim::calibrate {

namespace {

using validation::ComparedGemm;
using validation::SimResult;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// The arch with the fixed overrides, checked: a built-in preset (the calibrated preset
// names it as `base:`), overrides that apply, none of them on a fitted parameter.
Config fixed_config(const CalibrationOptions& o) {
  const auto names = preset_names();
  if (std::find(names.begin(), names.end(), o.arch) == names.end())
    throw InputError("--arch " + o.arch +
                     ": calibrate needs a built-in preset (the calibrated preset starts from "
                     "`base: <arch>`); presets: " +
                     join(names, ", "));
  Config cfg = load_arch(o.arch);
  for (const auto& ov : o.overrides) apply_override(cfg, ov);
  return cfg;
}

void check_not_fixed(const std::vector<FitParameter>& params,
                     const std::vector<std::string>& overrides) {
  for (const auto& p : params)
    for (const auto& ov : overrides)
      if (ov.rfind(p.dotted() + "=", 0) == 0)
        throw InputError("-p " + ov + ": " + p.dotted() +
                         " is also in --params; a parameter is either fitted or fixed");
}

void print_space(std::ostream& out, const std::vector<FitParameter>& params) {
  for (const auto& p : params) {
    out << "  " << p.dotted() << " in [" << p.format(p.lo) << ", " << p.format(p.hi) << "] "
        << p.unit << ", from " << p.format(p.start);
    if (!p.range_given)
      out << "  (its declared range, often a mere sanity bound: give " << p.dotted()
          << "=lo:hi for a faster fit)";
    out << "\n";
  }
}

std::string row_label(const ComparedGemm& r) {
  return r.measured.name + " " + r.measured.shape() + " " + r.measured.kernel;
}

}  // namespace

CalibrationResult run_calibration(const CalibrationOptions& o, std::ostream& progress) {
  using namespace validation;
  CalibrationResult r;
  r.arch = o.arch;
  const Config cfg = fixed_config(o);
  r.params = parse_fit_space(o.params, cfg);
  check_not_fixed(r.params, o.overrides);

  const std::vector<MeasurementFile> files = load_measurements(o.measurements);
  if (files.empty())
    throw InputError(o.measurements + ": no measurement files (stcsim-measurements/1) to fit to");
  std::vector<std::string> devices;
  for (const auto& f : files) devices.push_back(f.device_name);
  r.device = single_device(devices);

  for (const auto& f : files) {
    r.files.push_back(f.path);
    r.synthetic = r.synthetic || f.synthetic;
  }
  MeasuredJobs runnable = measured_jobs(files, o.arch, o.preset_clock, o.overrides, "");
  r.before = std::move(runnable.rows);
  r.fit_rows = std::move(runnable.job_rows);
  const std::vector<SimJob> jobs = std::move(runnable.jobs);
  if (jobs.empty())
    throw InputError(o.measurements + ": no measured GEMM the simulator can run, nothing to fit");
  r.pairs = speedup_pairs(r.before);
  std::vector<double> measured(r.before.size(), 0);
  for (std::size_t i = 0; i < r.before.size(); ++i) measured[i] = r.before[i].measured.time_us;

  const std::size_t n = r.params.size();
  r.max_evals = o.max_evals > 0 ? o.max_evals : int(60 * n);
  if (!o.quiet) {
    progress << "fitting " << n << " parameter" << (n == 1 ? "" : "s") << " of " << o.arch << " to "
             << jobs.size() << " measured GEMMs (" << r.pairs.size()
             << " dense/2:4 pairs), at most " << r.max_evals << " points per fit, " << o.jobs
             << " simulations at a time; error = time MAPE %"
             << (r.pairs.empty() ? "" : " + 100 x mean |2:4 speedup error|") << ":\n";
    print_space(progress, r.params);
  }

  GemmEvaluator evaluator(o.stcsim, jobs, o.out + "/sim/fit", o.jobs);
  // Predicted time per row (0 where not simulated) from one point's results.
  auto predicted_at = [&](const std::vector<SimResult>& results) {
    std::vector<double> p(r.before.size(), 0);
    for (std::size_t j = 0; j < results.size(); ++j) p[r.fit_rows[j]] = results[j].seconds * 1e6;
    return p;
  };
  auto objective_over = [&](std::vector<std::size_t> rows) -> BatchObjective {
    return [&, rows](const std::vector<UnitPoint>& points) {
      std::vector<Overrides> ov;
      for (const auto& u : points) ov.push_back(overrides_at(r.params, u));
      std::vector<double> values;
      for (const auto& results : evaluator.evaluate(ov))
        values.push_back(fit_error(predicted_at(results), measured, r.pairs, rows).objective);
      return values;
    };
  };
  OptimizerOptions opt;
  opt.max_evals = r.max_evals;
  opt.integer_steps = integer_steps(r.params);
  auto show = [&](const UnitPoint& u) { return join(overrides_at(r.params, u), " "); };

  // Before: the arch's own values, in the folder validate would have written.
  Overrides start_values;
  for (const auto& p : r.params) start_values.push_back(p.dotted() + "=" + p.format(p.start));
  const std::vector<SimResult> before =
      evaluator.simulate_into(start_values, o.out + "/sim/before");
  for (std::size_t j = 0; j < before.size(); ++j) r.before[r.fit_rows[j]].sim = before[j];
  r.error_before = fit_error(predicted_at(before), measured, r.pairs, r.fit_rows);

  // A line when the best improves, else every 10 points: the log shows the fit moving
  // without a line per batch.
  double shown_best = r.error_before.objective * 2 + 1;
  int shown_evals = 0;
  if (!o.quiet)
    opt.on_progress = [&](int evals, double best, const UnitPoint& at) {
      if (best >= shown_best && evals < shown_evals + 10) return;
      progress << "fit: " << evals << "/" << r.max_evals << " points, best error "
               << fmt("%.3f", best) << " at " << show(at) << "\n";
      shown_best = best;
      shown_evals = evals;
    };
  const OptimizerResult fit =
      minimize_in_box(objective_over(r.fit_rows), start_point(r.params), opt);
  r.evals = fit.evals;
  r.converged = fit.converged;
  for (std::size_t i = 0; i < n; ++i) r.fitted.push_back(r.params[i].from_unit(fit.best[i]));
  r.after = r.before;
  const std::vector<SimResult> after =
      evaluator.simulate_into(overrides_at(r.params, fit.best), o.out + "/sim/after");
  for (std::size_t j = 0; j < after.size(); ++j) r.after[r.fit_rows[j]].sim = after[j];
  r.error_after = fit_error(predicted_at(after), measured, r.pairs, r.fit_rows);
  if (!o.quiet) {
    progress << "fit: " << time_error_line(r) << "; " << show(fit.best) << "\n";
    for (const auto& w : edge_warnings(r)) progress << "note: " << w << "\n";
  }

  const auto units = leave_out_units(r.fit_rows, r.pairs);
  if (o.leave_one_out && units.size() < 2)
    r.leave_one_out_skipped = "one unit of data (a GEMM or a dense/2:4 pair): nothing to leave out";
  r.leave_one_out = o.leave_one_out && units.size() >= 2;
  r.loo_predicted_us.assign(r.before.size(), 0);
  opt.on_progress = nullptr;
  for (std::size_t k = 0; r.leave_one_out && k < units.size(); ++k) {
    std::vector<std::size_t> training;
    for (std::size_t row : r.fit_rows)
      if (std::find(units[k].begin(), units[k].end(), row) == units[k].end())
        training.push_back(row);
    const OptimizerResult refit = minimize_in_box(objective_over(training), fit.best, opt);
    const std::vector<double> predicted =
        predicted_at(evaluator.evaluate({overrides_at(r.params, refit.best)})[0]);
    LeaveOneOutFit lf{units[k], {}, fit_error(predicted, measured, r.pairs, training), refit.evals};
    for (std::size_t i = 0; i < n; ++i) lf.values.push_back(r.params[i].from_unit(refit.best[i]));
    std::string left_out;
    for (std::size_t row : units[k]) {
      r.loo_predicted_us[row] = predicted[row];
      left_out += (left_out.empty() ? "" : " + ") + row_label(r.before[row]) + " " +
                  fmt("%+.1f%%", 100 * (predicted[row] - measured[row]) / measured[row]);
    }
    if (!o.quiet)
      progress << "leave-one-out " << k + 1 << "/" << units.size() << ": " << show(refit.best)
               << "; left out " << left_out << "\n";
    r.loo_fits.push_back(std::move(lf));
  }
  if (r.leave_one_out) r.error_loo = fit_error(r.loo_predicted_us, measured, r.pairs, r.fit_rows);
  r.points_simulated = evaluator.points_simulated();
  return r;
}

}  // namespace stcsim::calibrate
