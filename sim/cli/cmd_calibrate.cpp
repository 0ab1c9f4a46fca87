// `stcsim calibrate`: fits listed parameters of a preset to GPU measurements (the files
// `stcsim validate` reads) and writes the result as a preset with `base:` and the fit's
// provenance (calibrated.yaml), a residual report with leave-one-out errors
// (residuals.txt, residuals.json) and the runs before and after the fit (sim/before,
// sim/after). The fit itself is validation/calibrate/calibration_run.h.
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <thread>

#include "sim/cli/commands.h"
#include "sim/driver/stats_json.h"
#include "validation/calibrate/calibrated_preset.h"
#include "validation/calibrate/calibration_run.h"
#include "validation/calibrate/residual_report.h"

namespace stcsim {

namespace {

struct CalibrateCommand {
  calibrate::CalibrationOptions options;
  std::string params;  // comma-separated, as typed
  bool no_loo = false;
};

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

// The command line as the preset records it, rebuilt from the options (the same run).
std::string command_line(const CalibrateCommand& c) {
  const auto& o = c.options;
  std::string s = "stcsim calibrate --measurements " + o.measurements + " --arch " + o.arch +
                  " --params " + c.params + " --out " + o.out;
  if (o.max_evals > 0) s += " --max-evals " + std::to_string(o.max_evals);
  if (!o.leave_one_out) s += " --no-loo";
  if (o.preset_clock) s += " --preset-clock";
  for (const auto& p : o.overrides) s += " -p " + p;
  return s;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

int run_calibrate(CalibrateCommand& c) {
  calibrate::CalibrationOptions& o = c.options;
  o.params = split_commas(c.params);
  o.leave_one_out = !c.no_loo;
  const calibrate::CalibrationResult r = calibrate::run_calibration(o, std::cerr);
  std::filesystem::create_directories(o.out);
  const std::string residuals = calibrate::format_residuals(r);
  write_file_atomically(o.out, "residuals.txt", residuals);
  write_file_atomically(o.out, "residuals.json", calibrate::residuals_json(r).dump(2) + "\n");
  write_file_atomically(
      o.out, "calibrated.yaml",
      calibrate::calibrated_preset_yaml(r, o.overrides, utc_date(), command_line(c)));
  std::cout << residuals << "\nWrote " << o.out << "/calibrated.yaml (stcsim run --arch " << o.out
            << "/calibrated.yaml), " << o.out << "/residuals.txt, " << o.out
            << "/residuals.json; runs before and after the fit in " << o.out << "/sim\n";
  return 0;
}

}  // namespace

Command add_calibrate_command(CLI::App& app) {
  auto c = std::make_shared<CalibrateCommand>();
  calibrate::CalibrationOptions& o = c->options;
  o.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  auto* sub = app.add_subcommand(
      "calibrate",
      "Fit preset parameters to GPU measurements (the files validate reads): minimises time MAPE "
      "plus 2:4 speedup error, reports leave-one-out error, writes a calibrated preset");
  sub->add_option("--measurements", o.measurements,
                  "a measurement (stcsim-measurements/1) or microbenchmark (stcsim-ubench/1) file, "
                  "or a directory of them; microbenchmark figures are fitted beside the GEMMs "
                  "through `stcsim ubench`")
      ->required();
  sub->add_option("--arch", o.arch, "the built-in preset to start from (the result's base:)")
      ->required();
  sub->add_option("--params", c->params,
                  "parameters to fit, comma-separated: section.key (its declared range) or "
                  "section.key=lo:hi, e.g. l2.hit_latency_cycles=100:400,dram.efficiency")
      ->required();
  sub->add_option("--out", o.out,
                  "directory for calibrated.yaml, residuals.txt/.json and the runs before and "
                  "after the fit")
      ->required();
  sub->add_option("-j,--jobs", o.jobs, "simulations run at once (default: the number of cores)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-evals", o.max_evals,
                  "distinct points each fit may simulate (default: 60 per parameter)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-loo", c->no_loo,
                "skip the leave-one-out refits (faster; no over-fitting figure)");
  sub->add_flag(
      "--preset-clock", o.preset_clock,
      "simulate at the preset's clock instead of the SM clock observed during the measurement");
  sub->add_option("-p,--param", o.overrides,
                  "hold a parameter fixed in every simulation: section.key=value (repeatable); "
                  "written to the calibrated preset too");
  sub->add_option("--stcsim", o.stcsim,
                  "the stcsim binary to run simulations with (default: this one)");
  sub->add_flag("-q,--quiet", o.quiet, "no progress lines");
  return [c] { return run_calibrate(*c); };
}

}  // namespace stcsim
