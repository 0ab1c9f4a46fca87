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

std::string row_label(const CalibrationResult& r, std::size_t row) {
  if (row >= r.before.size()) {
    const validation::UbenchRow& f = r.figures_before[row - r.before.size()];
    return f.name + " " + f.metric;
  }
  const auto& m = r.before[row].measured;
  return m.name + " " + m.shape() + " " + m.kernel;
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
  const std::vector<UbenchFile> ubench = load_ubench(o.measurements);
  if (files.empty() && ubench.empty())
    throw InputError(o.measurements +
                     ": no measurement (stcsim-measurements/1) or microbenchmark (stcsim-ubench/1) "
                     "files to fit to");
  std::vector<std::string> devices;
  for (const auto& f : files) devices.push_back(f.device_name);
  for (const auto& f : ubench) devices.push_back(f.device_name);
  r.device = single_device(devices);
  for (const auto& f : ubench) {
    r.files.push_back(f.path);
    r.synthetic = r.synthetic || f.synthetic;
  }

  for (const auto& f : files) {
    r.files.push_back(f.path);
    r.synthetic = r.synthetic || f.synthetic;
  }
  MeasuredJobs runnable = measured_jobs(files, o.arch, o.preset_clock, o.overrides, "");
  r.before = std::move(runnable.rows);
  r.fit_rows = std::move(runnable.job_rows);
  std::vector<SimJob> jobs = std::move(runnable.jobs);
  const std::size_t gemm_jobs = jobs.size(), g = r.before.size();
  r.figures_before = ubench_rows(ubench);
  if (!r.figures_before.empty())
    jobs.push_back(ubench_job(r.figures_before, o.arch, o.overrides, "ubench"));
  if (jobs.empty())
    throw InputError(o.measurements + ": no measured GEMM the simulator can run, nothing to fit");
  r.pairs = speedup_pairs(r.before);
  std::vector<double> measured(g + r.figures_before.size(), 0);
  for (std::size_t i = 0; i < g; ++i) measured[i] = r.before[i].measured.time_us;
  for (std::size_t i = 0; i < r.figures_before.size(); ++i)
    measured[g + i] = r.figures_before[i].measured;

  const std::size_t n = r.params.size();
  r.max_evals = o.max_evals > 0 ? o.max_evals : int(60 * n);
  if (!o.quiet) {
    progress << "fitting " << n << " parameter" << (n == 1 ? "" : "s") << " of " << o.arch << " to "
             << gemm_jobs << " measured GEMMs (" << r.pairs.size() << " dense/2:4 pairs)"
             << (r.figures_before.empty() ? ""
                                          : " and " + std::to_string(r.figures_before.size()) +
                                                " microbenchmark figures")
             << ", at most " << r.max_evals << " points per fit, " << o.jobs
             << " simulations at a time; error = "
             << (r.figures_before.empty() ? "time MAPE %" : "MAPE % of times and figures")
             << (r.pairs.empty() ? "" : " + 100 x mean |2:4 speedup error|") << ":\n";
    print_space(progress, r.params);
  }

  GemmEvaluator evaluator(o.stcsim, jobs, o.out + "/sim/fit", o.jobs);
  // The figures as one point's `stcsim ubench` run yields them.
  auto figures_at = [&](const std::vector<SimResult>& results) {
    std::vector<UbenchRow> rows = r.figures_before;
    if (!rows.empty()) set_predictions(rows, results.back().ubench);
    return rows;
  };
  // Predicted time (or figure) per row (0 where not simulated) from one point's results.
  auto predicted_at = [&](const std::vector<SimResult>& results) {
    std::vector<double> p(measured.size(), 0);
    for (std::size_t j = 0; j < gemm_jobs; ++j) p[r.fit_rows[j]] = results[j].seconds * 1e6;
    const std::vector<UbenchRow> figures = figures_at(results);
    for (std::size_t i = 0; i < figures.size(); ++i)
      if (figures[i].simulated) p[g + i] = figures[i].predicted;
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
  for (std::size_t j = 0; j < gemm_jobs; ++j) r.before[r.fit_rows[j]].sim = before[j];
  r.figures_before = figures_at(before);
  for (std::size_t i = 0; i < r.figures_before.size(); ++i)
    if (r.figures_before[i].simulated) r.figure_rows.push_back(g + i);
  const std::vector<std::size_t> all_rows = r.objective_rows();
  r.error_before = fit_error(predicted_at(before), measured, r.pairs, all_rows);

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
  const OptimizerResult fit = minimize_in_box(objective_over(all_rows), start_point(r.params), opt);
  r.evals = fit.evals;
  r.converged = fit.converged;
  for (std::size_t i = 0; i < n; ++i) r.fitted.push_back(r.params[i].from_unit(fit.best[i]));
  r.after = r.before;
  const std::vector<SimResult> after =
      evaluator.simulate_into(overrides_at(r.params, fit.best), o.out + "/sim/after");
  for (std::size_t j = 0; j < gemm_jobs; ++j) r.after[r.fit_rows[j]].sim = after[j];
  r.figures_after = figures_at(after);
  r.error_after = fit_error(predicted_at(after), measured, r.pairs, all_rows);
  if (!o.quiet) {
    progress << "fit: " << time_error_line(r) << "; " << show(fit.best) << "\n";
    for (const auto& w : edge_warnings(r)) progress << "note: " << w << "\n";
  }

  const auto units = leave_out_units(all_rows, r.pairs);
  if (o.leave_one_out && units.size() < 2)
    r.leave_one_out_skipped = "one unit of data (a GEMM or a dense/2:4 pair): nothing to leave out";
  r.leave_one_out = o.leave_one_out && units.size() >= 2;
  r.loo_predicted_us.assign(measured.size(), 0);
  opt.on_progress = nullptr;
  for (std::size_t k = 0; r.leave_one_out && k < units.size(); ++k) {
    std::vector<std::size_t> training;
    for (std::size_t row : all_rows)
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
      left_out += (left_out.empty() ? "" : " + ") + row_label(r, row) + " " +
                  fmt("%+.1f%%", 100 * (predicted[row] - measured[row]) / measured[row]);
    }
    if (!o.quiet)
      progress << "leave-one-out " << k + 1 << "/" << units.size() << ": " << show(refit.best)
               << "; left out " << left_out << "\n";
    r.loo_fits.push_back(std::move(lf));
  }
  if (r.leave_one_out) r.error_loo = fit_error(r.loo_predicted_us, measured, r.pairs, all_rows);
  r.points_simulated = evaluator.points_simulated();
  return r;
}

}  // namespace stcsim::calibrate
