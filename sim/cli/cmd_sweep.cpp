// `stcsim sweep`, `stcsim sweep-merge`, `stcsim report`: design-space exploration
// (docs/sweeps.md). The work is in sim/sweep; this file only wires the options.
#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/option_values.h"
#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"
#include "sim/sweep/model_workloads.h"
#include "sim/sweep/screen.h"
#include "sim/sweep/sweep_merge.h"
#include "sim/sweep/sweep_plan.h"
#include "sim/sweep/sweep_report.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/validate_points.h"

namespace stcsim {

namespace {

// CPUs this process may use (Slurm and taskset narrow it), the default -j.
int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return 1;
}

struct SweepOptions {
  std::string spec;
  std::string out;
  int jobs = usable_cpus();
  std::string shard = "0/1";
  bool retry_failed = false;
  std::string timeout;  // seconds, read by number_at_least
  bool dry_run = false;
  bool quiet = false;
  std::string max_memory;
  int screen = 0;
};

}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* sub = app.add_subcommand("sweep",
                                 "Run a design-space sweep: every point of SPEC (docs/sweeps.md), "
                                 "each workload run as its own "
                                 "`stcsim run` process, N at a time. Results go to DIR/points one "
                                 "point at a time, atomically; "
                                 "rerun the same command to resume. Exit 0: all points ran; 1: "
                                 "some failed (errors recorded).");
  sub->add_option("spec", o->spec, "sweep spec YAML")->required();
  sub->add_option("--out", o->out, "sweep folder (created; reused to resume)")->required();
  sub->add_option("-j,--jobs", o->jobs, "points run at a time (default: usable CPUs)")
      ->capture_default_str();
  sub->add_option("--shard", o->shard,
                  "run only slice I of N (I from 0): points with id % N == I; "
                  "combine the shard folders with `stcsim sweep-merge`")
      ->capture_default_str();
  sub->add_flag("--retry-failed", o->retry_failed, "also rerun points whose earlier run failed");
  sub->add_option("--timeout", o->timeout,
                  "seconds one workload run may take before it is killed and "
                  "recorded as failed (default: no limit)");
  sub->add_flag("--dry-run", o->dry_run,
                "validate the spec and every point, print the plan, run nothing");
  sub->add_flag("-q,--quiet", o->quiet, "no progress line");
  sub->add_option("--screen", o->screen,
                  "run every point in analytic mode first (DIR/screen), then simulate only the N "
                  "with the best geometric-mean speedup over the workloads (and the reference "
                  "point) in cycle mode");
  sub->add_option("--max-memory", o->max_memory,
                  "refuse a sweep whose results table (about 2 KiB per point and workload) "
                  "exceeds this many bytes, with K/M/G/T suffixes (default 8G); each point's "
                  "run has its own `run` limit");
  return [o, sub] {
    if (sub->count("--max-memory"))
      max_memory_bytes() = memory_option("--max-memory", o->max_memory);
    if (sub->count("--screen") && o->screen < 1)
      throw InputError("--screen: expected the number of points to simulate (1 or more), got " +
                       std::to_string(o->screen));
    sweep::SweepSpec spec = sweep::parse_sweep_spec_file(o->spec);
    const sweep::Shard shard = sweep::parse_shard(o->shard);
    // {model: NAME} workloads become traces once, in a scratch folder until the sweep is
    // validated (nothing is written to --out for a spec that fails), then in the sweep
    // folder's workloads/.
    struct Scratch {
      std::string dir;
      ~Scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
    } scratch{
        (std::filesystem::temp_directory_path() / ("stcsim_sweep_" + std::to_string(::getpid())))
            .string()};
    sweep::trace_model_workloads(spec, scratch.dir);
    sweep::SweepPlan checked(spec);
    sweep::validate_plan(checked);  // every key and value, before anything runs
    if (!o->dry_run) sweep::install_model_traces(spec, o->out + "/workloads");
    sweep::SweepPlan plan(std::move(spec));
    const auto& s = plan.spec();
    std::cerr << "sweep " << s.name << ": " << plan.count() << " points x " << s.workloads.size()
              << " workload(s)";
    if (shard.count > 1) std::cerr << ", shard " << shard.str();
    std::cerr << "; reference point p" << plan.reference_id() << "\n";
    if (o->dry_run) {
      for (std::int64_t id = 0; id < plan.count(); ++id) {
        if (!shard.contains(id)) continue;
        std::cout << "p" << id;
        for (const auto& [k, v] : plan.point(id).values) std::cout << " " << k << "=" << v;
        std::cout << "\n";
      }
      return 0;
    }
    sweep::RunOptions ro;
    ro.out = o->out;
    ro.jobs = o->jobs;
    ro.shard = shard;
    ro.retry_failed = o->retry_failed;
    ro.timeout_s = sub->count("--timeout") ? number_at_least("--timeout", o->timeout, 0, false) : 0;
    ro.progress = !o->quiet;
    sweep::RunSummary r;
    try {
      if (o->screen > 0) {
        const sweep::SweepPlan screen(sweep::screening_spec(plan.spec()));
        sweep::RunOptions so = ro;
        so.out = o->out + "/screen";
        const sweep::RunSummary sr = sweep::run_sweep(screen, so);
        if (sr.interrupted) return 130;
        std::ifstream in(so.out + "/results.json");
        ro.only = sweep::best_points(nlohmann::json::parse(in), o->screen, plan.reference_id());
        std::cerr << "sweep " << s.name << ": screened " << sr.selected << " points analytically ("
                  << so.out << "); simulating the best " << ro.only.size()
                  << " (the reference point included)\n";
      }
      r = sweep::run_sweep(plan, ro);
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {  // the host failed us (fork, disk): not exit 2
      std::cerr << "stcsim: sweep: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "sweep " << s.name << ": " << r.skipped + r.ran << "/" << r.selected
              << " points done (" << r.skipped << " from before, " << r.ran << " now, " << r.failed
              << " failed) in " << o->out << "; tables: results.csv, results.json\n";
    if (r.interrupted) {
      std::cerr << "sweep: interrupted; run the same command again to finish\n";
      return 130;
    }
    return r.failed > 0 ? 1 : 0;
  };
}

namespace {
struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out;
};
}  // namespace

Command add_sweep_merge_command(CLI::App& app) {
  auto o = std::make_shared<MergeOptions>();
  auto* sub = app.add_subcommand(
      "sweep-merge",
      "Combine shard folders of one sweep into one folder, the same as an unsharded run's "
      "(resumable with `stcsim sweep SPEC --out DIR` if points are missing). Exit 1 if any are.");
  sub->add_option("shards", o->inputs, "shard folders (DIR/shard_*)")->required();
  sub->add_option("--out", o->out, "merged sweep folder")->required();
  return [o] {
    const auto m = sweep::merge_sweeps(o->inputs, o->out);
    std::cerr << "sweep-merge: " << m.inputs << " folder(s) -> " << o->out << ": " << m.present
              << "/" << m.points_total << " points (" << m.failed << " failed)";
    if (m.present < m.points_total)
      std::cerr << "; " << m.points_total - m.present << " missing: rerun `stcsim sweep SPEC --out "
                << o->out << "` to run them";
    std::cerr << "\n";
    return m.present == m.points_total ? 0 : 1;
  };
}

namespace {
struct ReportOptions {
  std::string dir;
  std::string out;
};
}  // namespace

Command add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* sub = app.add_subcommand(
      "report",
      "Plot a sweep folder with gnuplot: speedup and time against each varied parameter, the "
      "Pareto "
      "front of speed against tensor-core width, a heatmap of the first two parameters, and "
      "summary.md naming the best points. Exit 1 if a plot could not be drawn.");
  sub->add_option("dir", o->dir, "sweep folder (from `stcsim sweep` or `sweep-merge`)")->required();
  sub->add_option("--out", o->out, "report folder (default DIR/report)");
  return [o] {
    const std::string out = o->out.empty() ? o->dir + "/report" : o->out;
    const auto r = sweep::write_report(o->dir, out);
    for (const auto& p : r.pngs) std::cout << "Wrote " << p << "\n";
    std::cout << "Wrote " << out << "/summary.md\n";
    for (const auto& p : r.problems) std::cerr << "stcsim: report: " << p << "\n";
    return r.problems.empty() ? 0 : 1;
  };
}

}  // namespace stcsim
