#include "validation/compare/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "validation/compare/statistics.h"

namespace stcsim::validation {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// A column w wide; a longer entry keeps one space after it, so it never runs into the next
// column (real-layer names such as esrgan.Pre_blocks_conv.x1 are longer than theirs).
std::string pad(std::string s, std::size_t w) {
  s.append(s.size() < w ? w - s.size() : 1, ' ');
  return s;
}

const ComparedGemm* find(const std::vector<ComparedGemm>& rows, const ComparedGemm& like,
                         const char* kernel) {
  for (const auto& r : rows)
    if (r.simulated && r.measured.kernel == kernel && r.measured.name == like.measured.name &&
        r.measured.shape() == like.measured.shape() && r.measured.dtype == like.measured.dtype)
      return &r;
  return nullptr;
}

nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace

std::vector<SpeedupError> speedup_errors(const std::vector<SpeedupRow>& rows) {
  // Per sparse kernel, then over all pairs ("all") when more than one kernel is present.
  std::map<std::string, SpeedupError> by_kernel;
  SpeedupError all{"all", 0, 0, 0};
  for (const auto& s : rows) {
    SpeedupError& e = by_kernel.try_emplace(s.sparse_kernel, SpeedupError{s.sparse_kernel, 0, 0, 0})
                          .first->second;
    for (SpeedupError* t : {&e, &all}) {
      t->n += 1;
      t->mean += s.abs_error();
      t->max = std::max(t->max, s.abs_error());
    }
  }
  std::vector<SpeedupError> out;
  for (auto& [name, e] : by_kernel) out.push_back(e);
  if (out.size() > 1) out.push_back(all);
  for (auto& e : out) e.mean /= e.n;
  return out;
}

Agreement agreement(const std::vector<ComparedGemm>& rows, bool ours) {
  std::vector<double> p, m;
  for (const auto& r : rows)
    if (r.simulated && r.measured.ours() == ours) {
      p.push_back(r.predicted_us());
      m.push_back(r.measured.time_us);
    }
  Agreement a;
  a.n = int(p.size());
  a.mape_percent = a.n ? mape_percent(p, m) : kNaN;
  a.pearson = a.n >= 2 ? pearson(p, m) : kNaN;
  a.spearman = a.n >= 2 ? spearman(p, m) : kNaN;
  return a;
}

MeasuredJobs measured_jobs(const std::vector<MeasurementFile>& files, const std::string& arch,
                           bool preset_clock, const std::vector<std::string>& overrides,
                           const std::string& dir) {
  MeasuredJobs out;
  for (const auto& f : files)
    for (const auto& g : f.gemms) {
      ComparedGemm row;
      row.measured = g;
      std::vector<std::string> args;
      row.simulated = simulation_args(g, arch, observed_clock(f, g, preset_clock), overrides, args,
                                      row.why_not);
      if (row.simulated) {
        out.jobs.push_back(
            SimJob{args, dir + sim_folder_name(out.jobs.size(), g), false,
                   g.file + ": gemm '" + g.name + "' (" + g.kernel + ", " + g.shape() + ")"});
        out.job_rows.push_back(out.rows.size());
      }
      out.rows.push_back(std::move(row));
    }
  return out;
}

std::vector<SpeedupPair> speedup_pairs(const std::vector<ComparedGemm>& rows) {
  std::vector<SpeedupPair> out;
  auto pair = [&](std::size_t sparse, const ComparedGemm* dense) {
    if (dense) out.push_back(SpeedupPair{sparse, std::size_t(dense - rows.data())});
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ComparedGemm& row = rows[i];
    if (!row.simulated) continue;
    if (row.measured.kernel == "stcsim_sp24") pair(i, find(rows, row, "stcsim_dense"));
    if (row.measured.kernel == "cusparselt") {
      const ComparedGemm* d = find(rows, row, "cublaslt");
      pair(i, d ? d : find(rows, row, "cublas"));
    }
    if (row.measured.kernel == "torch_24_cutlass" || row.measured.kernel == "torch_24_cusparselt")
      pair(i, find(rows, row, "torch_linear"));
  }
  return out;
}

void summarize(ValidationReport& r) {
  r.ours = agreement(r.rows, true);
  r.vendor = agreement(r.rows, false);
  r.speedups.clear();
  r.numerics.clear();
  r.all_checks_passed = true;
  for (const auto& row : r.rows)
    r.all_checks_passed = r.all_checks_passed && row.measured.check_passed;
  for (const SpeedupPair& p : speedup_pairs(r.rows)) {
    const ComparedGemm& sp = r.rows[p.sparse];
    const ComparedGemm& dense = r.rows[p.dense];
    r.speedups.push_back(SpeedupRow{
        sp.measured.name, sp.measured.shape(), dense.measured.kernel, sp.measured.kernel,
        dense.measured.time_us / sp.measured.time_us, dense.sim.seconds / sp.sim.seconds});
  }
  for (const auto& row : r.rows) {
    if (row.measured.numerics.empty()) continue;
    NumericsRow n{row.measured.name, row.measured.shape(), row.measured.kernel, {}, "", -1};
    for (const auto& p : row.measured.numerics) {
      if (p.preset == r.numerics_preset) n.arch_preset = p;
      if (p.exact > n.best_exact) n.best_exact = p.exact, n.best_preset = p.preset;
    }
    r.numerics.push_back(n);
  }
}

std::string format_report(const ValidationReport& r) {
  std::string o;
  if (r.synthetic)
    o += "*** SYNTHETIC measurements (made up for tests, not from a GPU): no conclusion about any "
         "GPU ***\n";
  o += "device: " + r.device + "   simulated as: " + r.arch + "\n";
  o += r.time == "warm" ? "times: timing.warm_us (back-to-back launches), simulated under --l2 "
                          "repeat\n\n"
                        : "times: time_us, simulated under the L2 each file states (flushed "
                          "before each launch unless settings.time_us_l2 says repeat)\n\n";
  // The kernel column is as wide as its longest name: names are never cut or run together.
  std::size_t kernel_w = 13;
  for (const auto& row : r.rows) kernel_w = std::max(kernel_w, row.measured.kernel.size() + 1);
  o += pad("gemm", 22) + pad("MxNxK", 18) + pad("kernel", kernel_w) + pad("mapping", 24) +
       "   clock  measured us  predicted us   error %\n";
  for (const auto& row : r.rows) {
    const MeasuredGemm& g = row.measured;
    o += pad(g.name, 22) + pad(g.shape(), 18) + pad(g.kernel, kernel_w);
    if (!row.simulated) {
      o += pad(g.mapping ? g.mapping->str() : "", 24) + "       -" + fmt("%13.1f", g.time_us) +
           "             -         -  (" + row.why_not + ")\n";
      continue;
    }
    o += pad(row.sim.mapping, 24) + fmt("%8.0f", row.sim.clock_mhz) + fmt("%13.1f", g.time_us) +
         fmt("%14.1f", row.predicted_us()) + fmt("%10.1f", row.error_percent()) +
         (g.padded() ? "  (ran padded: " + g.ran_shape() + ")" : "") + "\n";
  }
  auto line = [&](const char* what, const Agreement& a, const char* target) {
    if (a.n == 0) return;
    o += std::string(what) + ": " + std::to_string(a.n) + " GEMMs  MAPE " +
         fmt("%.1f%%", a.mape_percent) + "  Pearson " + fmt("%.3f", a.pearson) + "  Spearman " +
         fmt("%.3f", a.spearman) + target + "\n";
  };
  // Entries left out of the statistics are counted by kernel, so none is dropped unseen.
  std::map<std::string, int> not_simulated;
  for (const auto& row : r.rows)
    if (!row.simulated) ++not_simulated[row.measured.kernel];
  if (!not_simulated.empty()) {
    int n = 0;
    std::string kinds;
    for (const auto& [kernel, count] : not_simulated) {
      n += count;
      kinds += (kinds.empty() ? "" : ", ") + kernel + " x" + std::to_string(count);
    }
    o += std::to_string(n) +
         " measured entries not simulated, each listed above with why: " + kinds + "\n";
  }
  o += "\n";
  line("our kernels (exact schedule)", r.ours, "   [target: MAPE <= 10%]");
  line("vendor libraries (recorded mapping, else the chooser's)", r.vendor,
       "   [target: MAPE <= 15%]");
  // The same per kernel: one mean over several kernels hides which of them is off, and
  // the median's sign says whether the model is fast or slow on it.
  struct KernelRows {
    std::vector<double> predicted, measured, errors;
  };
  std::map<std::string, KernelRows> by_kernel;
  for (const auto& row : r.rows)
    if (row.simulated) {
      KernelRows& k = by_kernel[row.measured.kernel];
      k.predicted.push_back(row.predicted_us());
      k.measured.push_back(row.measured.time_us);
      k.errors.push_back(row.error_percent());
    }
  if (by_kernel.size() > 1) {
    o += "by kernel:\n";
    for (auto& [kernel, k] : by_kernel) {
      std::sort(k.errors.begin(), k.errors.end());
      const std::size_t n = k.errors.size();
      const double median = n % 2 ? k.errors[n / 2] : 0.5 * (k.errors[n / 2 - 1] + k.errors[n / 2]);
      o += "  " + pad(kernel, kernel_w) + fmt("%4.0f", double(n)) + " GEMMs  MAPE " +
           fmt("%5.1f%%", mape_percent(k.predicted, k.measured)) + "  median error " +
           fmt("%+6.1f%%", median) + "\n";
    }
  }
  if (!r.speedups.empty()) {
    std::size_t pair_w = 28;
    for (const auto& s : r.speedups)
      pair_w = std::max(pair_w, s.sparse_kernel.size() + s.dense_kernel.size() + 4);
    o += "\n2:4 speedup over dense, same GEMM:\n" + pad("gemm", 22) + pad("MxNxK", 18) +
         pad("sparse / dense kernels", pair_w) + "measured  predicted  abs error\n";
    for (const auto& s : r.speedups)
      o += pad(s.name, 22) + pad(s.shape, 18) +
           pad(s.sparse_kernel + " / " + s.dense_kernel, pair_w) + fmt("%8.3f", s.measured) +
           fmt("%11.3f", s.predicted) + fmt("%11.3f", s.abs_error()) + "\n";
    for (const SpeedupError& e : speedup_errors(r.speedups))
      o += "speedup error, " + e.sparse_kernel + ": " + std::to_string(e.n) + " pairs  mean " +
           fmt("%.3f", e.mean) + "  max " + fmt("%.3f", e.max) + "   [target: <= 0.10]\n";
  }
  if (!r.numerics.empty()) {
    o += "\nnumerics: GPU bits vs the functional model (sampled elements), preset '" +
         r.numerics_preset + "' of " + r.arch + ":\n";
    int exact_gemms = 0;
    for (const auto& n : r.numerics) {
      const auto& p = n.arch_preset;
      exact_gemms += p.compared > 0 && p.exact == p.compared;
      o += pad(n.name, 22) + pad(n.shape, 18) + pad(n.kernel, 13) + std::to_string(p.exact) + "/" +
           std::to_string(p.compared) + " exact, max " + fmt("%.0f", p.max_ulp) + " ulp, mean " +
           fmt("%.3f", p.mean_ulp) + " ulp; best preset " + n.best_preset + " (" +
           std::to_string(n.best_exact) + " exact)\n";
    }
    o += "bit-exact under '" + r.numerics_preset + "': " + std::to_string(exact_gemms) + " of " +
         std::to_string(r.numerics.size()) + " GEMMs   [target: all]\n";
  }
  if (!r.all_checks_passed)
    o += "\nWARNING: some measured kernels failed their correctness checks\n";
  return o;
}

nlohmann::json report_json(const ValidationReport& r) {
  nlohmann::json j;
  j["synthetic"] = r.synthetic;
  j["device"] = r.device;
  j["arch"] = r.arch;
  j["time"] = r.time;
  j["files"] = r.files;
  j["gemms"] = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json g{{"name", row.measured.name},     {"shape", row.measured.shape()},
                     {"kernel", row.measured.kernel}, {"measured_us", row.measured.time_us},
                     {"l2", row.measured.l2},         {"simulated", row.simulated}};
    if (row.measured.padded()) g["ran_shape"] = row.measured.ran_shape();  // what was timed
    if (row.simulated) {
      g["predicted_us"] = row.predicted_us();
      g["error_percent"] = row.error_percent();
      g["sim_mapping"] = row.sim.mapping;
      g["sim_clock_mhz"] = row.sim.clock_mhz;
    } else {
      g["why_not"] = row.why_not;
    }
    j["gemms"].push_back(g);
  }
  auto agree = [](const Agreement& a) {
    return nlohmann::json{{"n", a.n},
                          {"mape_percent", number_or_null(a.mape_percent)},
                          {"pearson", number_or_null(a.pearson)},
                          {"spearman", number_or_null(a.spearman)}};
  };
  j["ours"] = agree(r.ours);
  j["vendor"] = agree(r.vendor);
  j["speedups"] = nlohmann::json::array();
  for (const auto& s : r.speedups)
    j["speedups"].push_back({{"name", s.name},
                             {"shape", s.shape},
                             {"dense_kernel", s.dense_kernel},
                             {"sparse_kernel", s.sparse_kernel},
                             {"measured", s.measured},
                             {"predicted", s.predicted},
                             {"abs_error", s.abs_error()}});
  j["speedup_errors"] = nlohmann::json::array();
  for (const SpeedupError& e : speedup_errors(r.speedups))
    j["speedup_errors"].push_back(
        {{"sparse_kernel", e.sparse_kernel}, {"n", e.n}, {"mean", e.mean}, {"max", e.max}});
  j["numerics_preset"] = r.numerics_preset;
  j["numerics"] = nlohmann::json::array();
  for (const auto& n : r.numerics)
    j["numerics"].push_back({{"name", n.name},
                             {"shape", n.shape},
                             {"kernel", n.kernel},
                             {"compared", n.arch_preset.compared},
                             {"exact", n.arch_preset.exact},
                             {"max_ulp", n.arch_preset.max_ulp},
                             {"best_preset", n.best_preset}});
  j["all_checks_passed"] = r.all_checks_passed;
  return j;
}

}  // namespace stcsim::validation
