#include "validation/calibrate/residual_report.h"

#include <algorithm>
#include <cstdio>

namespace stcsim::calibrate {

namespace {

using validation::ComparedGemm;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

double error_percent(double predicted, double measured) {
  return 100.0 * (predicted - measured) / measured;
}

double speedup(const std::vector<ComparedGemm>& rows, const validation::SpeedupPair& p) {
  return rows[p.dense].sim.seconds / rows[p.sparse].sim.seconds;
}

double measured_speedup(const CalibrationResult& r, const validation::SpeedupPair& p) {
  return r.before[p.dense].measured.time_us / r.before[p.sparse].measured.time_us;
}

double loo_speedup(const CalibrationResult& r, const validation::SpeedupPair& p) {
  return r.loo_predicted_us[p.dense] / r.loo_predicted_us[p.sparse];
}

const char* kObjectiveNote =
    "The fit minimises time MAPE + 100 x the mean absolute 2:4 speedup error (where dense and "
    "2:4 runs\nof the same GEMM were both measured): a speedup off by 0.10 counts as much as a "
    "time off by 10%.\nA microbenchmark figure (throughput, bandwidth, latency) counts in the MAPE "
    "as one more row.\n";

const char* kLeaveOneOutNote =
    "Leave-one-out: each GEMM (a dense run with its 2:4 runs as one unit) was left out, the "
    "parameters\nrefitted to the rest from the fit's optimum, and the unit predicted by that "
    "refit. Its error is\nthe fit's error on data it did not see: close to the in-sample error, "
    "the parameters describe the\nhardware; well above it, they have learnt these GEMMs "
    "(over-fitting: fewer parameters, narrower\nranges or more data). The refits' spread of "
    "each parameter says how well the data pins it.\n";

}  // namespace

std::string time_error_line(const CalibrationResult& r) {
  std::string s = std::string(r.figure_rows.empty() ? "time MAPE " : "MAPE of times and figures ") +
                  fmt("%.2f%%", r.error_before.mape_percent) + " before, " +
                  fmt("%.2f%%", r.error_after.mape_percent) + " in-sample";
  if (r.leave_one_out) s += ", " + fmt("%.2f%%", r.error_loo.mape_percent) + " leave-one-out";
  return s;
}

std::string speedup_error_line(const CalibrationResult& r) {
  if (r.error_after.pairs == 0) return "";
  std::string s = "2:4 speedup error (mean abs) " + fmt("%.3f", r.error_before.speedup_abs_error) +
                  " before, " + fmt("%.3f", r.error_after.speedup_abs_error) + " in-sample";
  if (r.leave_one_out) s += ", " + fmt("%.3f", r.error_loo.speedup_abs_error) + " leave-one-out";
  return s;
}

std::vector<std::string> edge_warnings(const CalibrationResult& r) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const FitParameter& p = r.params[i];
    const double u = p.to_unit(r.fitted[i]);
    if (u > 0.005 && u < 0.995) continue;
    out.push_back(p.dotted() + " = " + p.format(r.fitted[i]) + " is at the " +
                  (u <= 0.005 ? "low" : "high") +
                  " end of its range: the best value may lie beyond it (widen the range if "
                  "the hardware allows, or suspect another mechanism)");
  }
  return out;
}

std::string format_residuals(const CalibrationResult& r) {
  std::string o;
  if (r.synthetic)
    o += "*** SYNTHETIC measurements (made up or simulated for tests, not from a GPU): no "
         "conclusion about any GPU ***\n";
  o += "stcsim calibrate: " + r.arch + " fitted to '" + r.device + "', " +
       std::to_string(r.fit_rows.size()) + " GEMMs" +
       (r.figure_rows.empty()
            ? ""
            : " and " + std::to_string(r.figure_rows.size()) + " microbenchmark figures") +
       " from:\n";
  for (const auto& f : r.files) o += "  " + f + "\n";
  o += "\n" + pad("parameter", 34) + pad("range", 26) + pad("before", 12) + pad("fitted", 12) +
       (r.leave_one_out ? "leave-one-out refits" : "") + "\n";
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const FitParameter& p = r.params[i];
    o += pad(p.dotted(), 34) +
         pad("[" + p.format(p.lo) + ", " + p.format(p.hi) + "] " + p.unit, 26) +
         pad(p.format(p.start), 12) + pad(p.format(r.fitted[i]), 12);
    if (!r.loo_fits.empty()) {
      double lo = r.loo_fits[0].values[i], hi = lo;
      for (const auto& f : r.loo_fits) {
        lo = std::min(lo, f.values[i]);
        hi = std::max(hi, f.values[i]);
      }
      o += p.format(lo) + " .. " + p.format(hi);
    }
    o += "\n";
  }

  if (!r.before.empty()) {
    o += "\n" + pad("gemm", 22) + pad("MxNxK", 18) + pad("kernel", 13) +
         " measured us   before us  err %    after us  err %";
    if (r.leave_one_out) o += "    l-o-o us  err %";
    o += "\n";
  }
  for (std::size_t i = 0; i < r.before.size(); ++i) {
    const ComparedGemm& b = r.before[i];
    const ComparedGemm& a = r.after[i];
    const double m = b.measured.time_us;
    o += pad(b.measured.name, 22) + pad(b.measured.shape(), 18) + pad(b.measured.kernel, 13) +
         fmt("%12.2f", m);
    if (!b.simulated) {
      o += "   (not simulated: " + b.why_not + ")\n";
      continue;
    }
    o += fmt("%12.2f", b.predicted_us()) + fmt("%7.1f", b.error_percent()) +
         fmt("%12.2f", a.predicted_us()) + fmt("%7.1f", a.error_percent());
    if (r.leave_one_out)
      o += fmt("%12.2f", r.loo_predicted_us[i]) +
           fmt("%7.1f", error_percent(r.loo_predicted_us[i], m));
    o += "\n";
  }
  if (!r.figures_before.empty()) {
    o += "\n" + pad("microbenchmark", 34) + pad("metric", 11) + pad("unit", 12) +
         "   measured      before  err %       after  err %";
    if (r.leave_one_out) o += "       l-o-o  err %";
    o += "\n";
    for (std::size_t i = 0; i < r.figures_before.size(); ++i) {
      const validation::UbenchRow& b = r.figures_before[i];
      o += pad(b.name, 34) + pad(b.metric, 11) + pad(b.unit, 12) + fmt("%11.2f", b.measured);
      if (!b.simulated) {
        o += "   (not simulated: " + b.why_not + ")\n";
        continue;
      }
      const validation::UbenchRow& a = r.figures_after[i];
      o += fmt("%12.2f", b.predicted) + fmt("%7.1f", b.error_percent()) +
           fmt("%12.2f", a.predicted) + fmt("%7.1f", a.error_percent());
      if (r.leave_one_out) {
        const double l = r.loo_predicted_us[r.before.size() + i];
        o += fmt("%12.2f", l) + fmt("%7.1f", error_percent(l, b.measured));
      }
      o += "\n";
    }
  }
  if (!r.pairs.empty()) {
    o += "\n2:4 speedup over dense, same GEMM:\n" + pad("gemm", 22) + pad("MxNxK", 18) +
         pad("sparse / dense kernels", 28) + "measured  before   after";
    if (r.leave_one_out) o += "   l-o-o";
    o += "\n";
    for (const auto& p : r.pairs) {
      const auto& sp = r.before[p.sparse].measured;
      o += pad(sp.name, 22) + pad(sp.shape(), 18) +
           pad(sp.kernel + " / " + r.before[p.dense].measured.kernel, 28) +
           fmt("%8.3f", measured_speedup(r, p)) + fmt("%8.3f", speedup(r.before, p)) +
           fmt("%8.3f", speedup(r.after, p));
      if (r.leave_one_out) o += fmt("%8.3f", loo_speedup(r, p));
      o += "\n";
    }
  }

  o += "\n" + time_error_line(r) + "\n";
  if (const std::string s = speedup_error_line(r); !s.empty()) o += s + "\n";
  o += "objective " + fmt("%.3f", r.error_before.objective) + " before, " +
       fmt("%.3f", r.error_after.objective) + " after\n";
  for (const auto& w : edge_warnings(r)) o += "note: " + w + "\n";
  if (!r.leave_one_out_skipped.empty())
    o += "leave-one-out not done: " + r.leave_one_out_skipped + "\n";
  o += "full fit: " + std::to_string(r.evals) + " of at most " + std::to_string(r.max_evals) +
       " points, " + (r.converged ? "converged" : "stopped by the budget (--max-evals)") + "; " +
       std::to_string(r.points_simulated) + " points simulated over all fits\n\n";
  o += kObjectiveNote;
  if (r.leave_one_out) o += kLeaveOneOutNote;
  return o;
}

nlohmann::json residuals_json(const CalibrationResult& r) {
  using nlohmann::json;
  auto error = [](const FitError& e) {
    return json{{"gemms", e.gemms},
                {"mape_percent", e.mape_percent},
                {"speedup_pairs", e.pairs},
                {"speedup_abs_error", e.speedup_abs_error},
                {"objective", e.objective}};
  };
  json j;
  j["synthetic"] = r.synthetic;
  j["arch"] = r.arch;
  j["device"] = r.device;
  j["files"] = r.files;
  j["objective"] =
      "MAPE (percent) of GEMM times and microbenchmark figures + 100 x mean |2:4 speedup error|";
  j["parameters"] = json::array();
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const FitParameter& p = r.params[i];
    json loo = json::array();
    for (const auto& f : r.loo_fits) loo.push_back(f.values[i]);
    j["parameters"].push_back({{"name", p.dotted()},
                               {"unit", p.unit},
                               {"integer", p.integer},
                               {"range", {p.lo, p.hi}},
                               {"declared_range", {p.declared_lo, p.declared_hi}},
                               {"before", p.start},
                               {"fitted", r.fitted[i]},
                               {"leave_one_out", loo}});
  }
  j["gemms"] = json::array();
  for (std::size_t i = 0; i < r.before.size(); ++i) {
    const ComparedGemm& b = r.before[i];
    json g{{"name", b.measured.name},           {"shape", b.measured.shape()},
           {"kernel", b.measured.kernel},       {"file", b.measured.file},
           {"measured_us", b.measured.time_us}, {"simulated", b.simulated}};
    if (b.simulated) {
      g["before_us"] = b.predicted_us();
      g["before_error_percent"] = b.error_percent();
      g["after_us"] = r.after[i].predicted_us();
      g["after_error_percent"] = r.after[i].error_percent();
      if (r.leave_one_out) {
        g["leave_one_out_us"] = r.loo_predicted_us[i];
        g["leave_one_out_error_percent"] = error_percent(r.loo_predicted_us[i], b.measured.time_us);
      }
    } else {
      g["why_not"] = b.why_not;
    }
    j["gemms"].push_back(g);
  }
  j["figures"] = json::array();
  for (std::size_t i = 0; i < r.figures_before.size(); ++i) {
    const validation::UbenchRow& b = r.figures_before[i];
    json f{{"name", b.name},
           {"metric", b.metric},
           {"unit", b.unit},
           {"measured", b.measured},
           {"simulated", b.simulated}};
    if (b.simulated) {
      f["before"] = b.predicted;
      f["before_error_percent"] = b.error_percent();
      f["after"] = r.figures_after[i].predicted;
      f["after_error_percent"] = r.figures_after[i].error_percent();
      if (r.leave_one_out) {
        const double l = r.loo_predicted_us[r.before.size() + i];
        f["leave_one_out"] = l;
        f["leave_one_out_error_percent"] = error_percent(l, b.measured);
      }
    } else {
      f["why_not"] = b.why_not;
    }
    j["figures"].push_back(f);
  }
  j["speedups"] = json::array();
  for (const auto& p : r.pairs) {
    json s{{"name", r.before[p.sparse].measured.name},
           {"shape", r.before[p.sparse].measured.shape()},
           {"sparse_kernel", r.before[p.sparse].measured.kernel},
           {"dense_kernel", r.before[p.dense].measured.kernel},
           {"measured", measured_speedup(r, p)},
           {"before", speedup(r.before, p)},
           {"after", speedup(r.after, p)}};
    if (r.leave_one_out) s["leave_one_out"] = loo_speedup(r, p);
    j["speedups"].push_back(s);
  }
  j["summary"] = {{"before", error(r.error_before)}, {"in_sample", error(r.error_after)}};
  if (r.leave_one_out) j["summary"]["leave_one_out"] = error(r.error_loo);
  if (!r.leave_one_out_skipped.empty()) j["leave_one_out_skipped"] = r.leave_one_out_skipped;
  j["fit"] = {{"points", r.evals},
              {"max_points", r.max_evals},
              {"converged", r.converged},
              {"points_simulated", r.points_simulated}};
  return j;
}

}  // namespace stcsim::calibrate
