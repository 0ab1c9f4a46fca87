// `stcsim validate`: the simulator against measured GPUs. Reads the harness's
// measurement files (validation/harness, docs/validation.md), simulates every GEMM with
// the matching preset, the kernel's own mapping and the observed SM clock (each in a
// child `stcsim run`): dense, 2:4, block-sparse (the block-skipping kernel) and CSR;
// prints predicted versus measured times, MAPE, Pearson and Spearman, 2:4 speedups and
// numerics agreement, and writes report.json and a gnuplot scatter plot. Microbenchmark
// files (stcsim-ubench/1) in the same place are compared with the same programs run on
// the model (`stcsim ubench`, validation/compare/ubench_compare.h); figures the model
// does not yield are listed with why. Exit status 1 when MAPE exceeds --max-mape.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <thread>

#include "sim/cli/commands.h"
#include "sim/cli/option_values.h"
#include "sim/core/input_error.h"
#include "sim/driver/stats_json.h"
#include "sim/sweep/progress_line.h"
#include "validation/compare/measurements.h"
#include "validation/compare/report.h"
#include "validation/compare/scatter_plot.h"
#include "validation/compare/simulate.h"
#include "validation/compare/ubench_compare.h"

namespace stcsim {

namespace {

struct ValidateOptions {
  std::string measurements;
  std::optional<double> max_mape;
  std::string max_mape_text;  // --max-mape as given, read by number_at_least
  std::string arch;
  std::string out = "out/validate";
  std::string stcsim = "/proc/self/exe";
  int jobs = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  bool preset_clock = false;
  bool quiet = false;
  std::string time = "cold";
  std::vector<std::string> overrides;
};

// One device per validation; its preset from --arch, the files, or the device name.
std::string choose_arch(const ValidateOptions& o,
                        const std::vector<validation::MeasurementFile>& files,
                        const std::vector<validation::UbenchFile>& ubench) {
  std::vector<std::string> devices;
  for (const auto& f : files) devices.push_back(f.device_name);
  for (const auto& f : ubench) devices.push_back(f.device_name);
  validation::single_device(devices);
  if (!o.arch.empty()) return o.arch;
  if (!files.empty() && !files[0].preset.empty()) return files[0].preset;
  const std::string p = validation::preset_for_device(devices[0]);
  if (p.empty()) throw InputError("no preset known for device '" + devices[0] + "': pass --arch");
  return p;
}

int run_validate(const ValidateOptions& o) {
  using namespace validation;
  std::vector<MeasurementFile> files = load_measurements(o.measurements);
  if (o.time == "warm") use_warm_times(files);
  const std::vector<UbenchFile> ubench = load_ubench(o.measurements);
  if (files.empty() && ubench.empty())
    throw InputError(o.measurements +
                     ": no measurement (stcsim-measurements/1) or microbenchmark "
                     "(stcsim-ubench/1) files");
  ValidationReport r;
  r.arch = choose_arch(o, files, ubench);
  r.device = files.empty() ? ubench[0].device_name : files[0].device_name;
  r.time = o.time;
  for (const auto& f : files) {
    r.files.push_back(f.path);
    r.synthetic = r.synthetic || f.synthetic;
  }
  MeasuredJobs measured =
      measured_jobs(files, r.arch, o.preset_clock, o.overrides, o.out + "/sim/");
  r.rows = std::move(measured.rows);
  std::vector<SimJob> jobs = std::move(measured.jobs);
  const std::vector<std::size_t> job_rows = std::move(measured.job_rows);
  const std::size_t gemm_jobs = jobs.size();
  // Microbenchmarks: one `stcsim ubench` run simulates them all at the preset's clock
  // (cycle figures are per SM clock; the ubench file records no clock).
  std::vector<UbenchRow> urows = ubench_rows(ubench);
  if (!urows.empty()) jobs.push_back(ubench_job(urows, r.arch, o.overrides, o.out + "/sim/ubench"));
  for (const auto& f : ubench) r.synthetic = r.synthetic || f.synthetic;
  if (jobs.empty()) throw InputError(o.measurements + ": no measured GEMM the simulator can run");
  if (r.device.find("H200") != std::string::npos && r.arch == "h100")
    std::cerr << "note: H200 simulated with the h100 preset (same SMs; HBM3e memory differs)\n";
  std::cerr << "simulating " << jobs.size() << " workloads on " << r.arch << " (" << o.jobs
            << " at a time)...\n";
  sweep::ProgressLine progress(std::cerr, isatty(2), std::int64_t(jobs.size()), 0, 0,
                               {"simulations", false, 0});
  SimProgress on_done;
  if (!o.quiet)
    on_done = [&progress](std::size_t done, int running) {
      progress.update(std::int64_t(done), 0, running);
    };
  const std::vector<SimResult> sims = run_simulations(o.stcsim, jobs, o.jobs, on_done);
  if (!o.quiet) progress.finish(std::int64_t(jobs.size()), 0);
  for (std::size_t i = 0; i < gemm_jobs; ++i) r.rows[job_rows[i]].sim = sims[i];
  if (!urows.empty()) set_predictions(urows, sims.back().ubench);
  r.numerics_preset = sims[0].numerics_preset;

  nlohmann::json report = nlohmann::json::object();
  if (gemm_jobs > 0) {
    summarize(r);
    std::cout << format_report(r);
    report = report_json(r);
  }
  if (!urows.empty()) {
    if (gemm_jobs == 0 && r.synthetic)
      std::cout << "SYNTHETIC DATA (test fixtures), not a measurement\n";
    std::cout << format_ubench(urows);
    report["ubench"] = ubench_json(urows);
    report["synthetic"] = r.synthetic;
  }
  write_file_atomically(o.out, "report.json", report.dump(2) + "\n");
  std::cout << "\nWrote " << o.out << "/report.json";
  const std::string plot = gemm_jobs > 0 ? write_scatter_plot(r, o.out) : "no GEMM was simulated";
  std::cout << (plot.empty() ? ", " + o.out + "/scatter.png" : "; no scatter plot: " + plot)
            << "\n";

  if (o.max_mape && gemm_jobs > 0) {
    const Agreement& a = r.ours.n ? r.ours : r.vendor;
    if (!(a.mape_percent <= *o.max_mape)) {
      std::cerr << "stcsim validate: MAPE " << a.mape_percent << "% exceeds --max-mape "
                << *o.max_mape << "%\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

Command add_validate_command(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  auto* sub = app.add_subcommand(
      "validate",
      "Compare the simulator with GPU measurements (files written by the validation harness and "
      "microbenchmarks): per-GEMM error, MAPE, Pearson and Spearman, 2:4 speedups, numerics "
      "agreement, scatter plot; microbenchmark figures against the same programs run on the model");
  sub->add_option("--measurements", o->measurements,
                  "a measurement (stcsim-measurements/1) or microbenchmark (stcsim-ubench/1) JSON "
                  "file, or a directory of them")
      ->required();
  sub->add_option("--max-mape", o->max_mape_text,
                  "exit with status 1 when the MAPE (percent; of our kernels, or of the vendor "
                  "libraries when none of ours was measured) exceeds this");
  sub->add_option("--arch", o->arch,
                  "preset or YAML to simulate (default: from the measured device)");
  sub->add_option("--out", o->out,
                  "directory for report.json, scatter.png and the simulations' stats")
      ->capture_default_str();
  sub->add_option("--stcsim", o->stcsim,
                  "the stcsim binary to run simulations with (default: this one)");
  sub->add_option("-j,--jobs", o->jobs, "simulations run at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_flag(
      "--preset-clock", o->preset_clock,
      "simulate at the preset's clock instead of the SM clock observed during the measurement");
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter in every simulation: section.key=value (repeatable)");
  sub->add_option("--time", o->time,
                  "which measured time to compare: cold (time_us, simulated under the L2 each "
                  "file says it met: flushed, or a benchmark loop's repeats) or warm "
                  "(timing.warm_us, back-to-back launches, simulated under --l2 repeat)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cold", "warm"}));
  sub->add_flag("-q,--quiet", o->quiet, "no progress line");
  return [o, sub] {
    if (sub->count("--max-mape"))
      o->max_mape = number_at_least("--max-mape", o->max_mape_text, 0, true);
    return run_validate(*o);
  };
}

}  // namespace stcsim
