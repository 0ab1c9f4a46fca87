// `stcsim crossover`: sweep the weight sparsity of one GEMM under a pruning pattern,
// print the speedup over dense at each point and the first sparsity where sparse beats
// dense, and plot the curve. Each point is a child `stcsim run` (SystemC allows one
// simulation per process); the dense baseline runs once.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"
#include "sim/sweep/child_process.h"
#include "sim/sweep/gnuplot_script.h"
#include "sim/sweep/progress_line.h"

namespace stcsim {

namespace {
struct CrossoverOptions {
  std::string arch = "a100", gemm, pattern = "block:32x32", dtype = "fp16", dist = "uniform", out;
  int vector = 16;
  std::vector<double> points{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
  std::vector<std::string> overrides;
  bool quiet = false;
};

// Run `stcsim run ARGS` into `dir` and return its first op's cycles.
double run_point(const std::string& exe, const std::string& args, const std::string& dir) {
  const std::string cmd =
      "'" + exe + "' run " + args + " -q --out '" + dir + "' > '" + dir + ".log' 2>&1";
  std::filesystem::create_directories(dir);
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(dir + ".log");
    std::stringstream ss;
    ss << log.rdbuf();
    throw InputError("crossover: `stcsim run " + args + "` failed:\n" + ss.str());
  }
  std::ifstream in(dir + "/stats.json");
  return nlohmann::json::parse(in)["ops"][0]["cycles"].get<double>();
}

// One curve: a name and the `stcsim run` arguments of its point at sparsity S.
struct Series {
  std::string name;
  std::function<std::string(const std::string& s)> args;
};

// Sparsity where a curve first exceeds 1, interpolated from the previous point; -1: never.
double first_crossing(const std::vector<double>& xs, const std::vector<double>& ys) {
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (ys[i] <= 1.0) continue;
    if (i > 0 && ys[i - 1] <= 1.0)
      return xs[i - 1] + (1.0 - ys[i - 1]) / (ys[i] - ys[i - 1]) * (xs[i] - xs[i - 1]);
    return xs[i];
  }
  return -1;
}
}  // namespace

Command add_crossover_command(CLI::App& app) {
  auto o = std::make_shared<CrossoverOptions>();
  auto* sub = app.add_subcommand("crossover",
                                 "Sweep weight sparsity for one GEMM under a pattern (block:RxC, "
                                 "unstructured, or 2:4 at its fixed 50%), print the speedup over "
                                 "dense and the first sparsity where it exceeds 1, write "
                                 "crossover.csv and crossover.png");
  sub->add_option("--arch", o->arch, "preset name or YAML file")->capture_default_str();
  sub->add_option("--gemm", o->gemm, "the GEMM as MxNxK")->required();
  sub->add_option("--pattern", o->pattern,
                  "block:RxC (1x1 to 64x64), unstructured (two curves: CSR SpMM on CUDA cores, "
                  "and tensor cores over Vx1 column vectors, V = --vector), or 2:4")
      ->capture_default_str();
  sub->add_option("--vector", o->vector, "unstructured: V of the tensor-core curve's Vx1 vectors")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub->add_option("--dtype", o->dtype, "input dtype")->capture_default_str();
  sub->add_option("--block-dist", o->dist, "nonzeros over rows: uniform|skewed")
      ->capture_default_str();
  sub->add_option("--points", o->points,
                  "sparsities to simulate (default 0..0.95 for blocks; 0.5..0.99 for unstructured)")
      ->delimiter(',');
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter: section.key=value (repeatable)");
  sub->add_option("--out", o->out, "directory for the points, crossover.csv and crossover.png")
      ->required();
  sub->add_flag("-q,--quiet", o->quiet, "no progress line");
  return [o, sub] {
    const bool nm = o->pattern == "2:4", unstructured = o->pattern == "unstructured";
    if (!nm && !unstructured && o->pattern.rfind("block:", 0) != 0)
      throw InputError("--pattern: expected block:RxC, unstructured or 2:4, got '" + o->pattern +
                       "'");
    if (unstructured && sub->count("--points") == 0)
      o->points = {0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99};
    for (double p : o->points)
      if (!(p >= 0 && p <= 1)) throw InputError("--points: sparsities must be in [0, 1]");
    const std::string exe = sweep::self_executable();  // the children run this very stcsim
    std::string common = "--arch '" + o->arch + "' --gemm " + o->gemm + " --dtype " + o->dtype +
                         " --no-dense-baseline";
    for (const auto& p : o->overrides) common += " -p '" + p + "'";
    std::filesystem::create_directories(o->out);
    std::vector<Series> series;
    std::vector<double> xs = o->points;
    if (nm) {
      xs = {0.5};
      series.push_back({"2:4", [](const std::string&) { return std::string(" --sparsity 2:4"); }});
    } else if (unstructured) {
      const std::string dist = " --block-dist " + o->dist;
      series.push_back({"csr_cuda_cores", [dist](const std::string& s) {
                          return " --unstructured " + s + " --unstructured-kernel csr" + dist;
                        }});
      const std::string v = std::to_string(o->vector);
      series.push_back({"tc_" + v + "x1_vectors", [dist, v](const std::string& s) {
                          return " --unstructured " + s + " --unstructured-kernel tc:" + v + dist;
                        }});
    } else {
      const std::string rc = o->pattern.substr(6), dist = " --block-dist " + o->dist;
      series.push_back({o->pattern, [rc, dist](const std::string& s) {
                          return " --block " + rc + "@" + s + dist;
                        }});
    }
    // The dense run, then every point of every curve, one child at a time.
    const std::int64_t runs = 1 + std::int64_t(xs.size() * series.size());
    sweep::ProgressLine progress(std::cerr, isatty(2), runs, 0, 0, {"simulations", false, 0});
    std::int64_t done = 0;
    auto ran = [&] {
      if (!o->quiet) progress.update(++done, 0, 0);
    };
    const double dense = run_point(exe, common, o->out + "/dense");
    ran();
    std::vector<std::vector<double>> ys(series.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      std::ostringstream s;
      s << xs[i];
      for (std::size_t j = 0; j < series.size(); ++j) {
        const std::string dir =
            o->out + "/p" + std::to_string(i) + (series.size() > 1 ? "_" + series[j].name : "");
        ys[j].push_back(dense / run_point(exe, common + series[j].args(s.str()), dir));
        ran();
      }
    }
    if (!o->quiet) progress.finish(done, 0);
    std::ostringstream csv;  // written whole, atomically, below
    csv << "sparsity";
    for (const auto& se : series) csv << "," << (series.size() > 1 ? se.name : "speedup");
    csv << "\n";
    std::cout << "crossover: " << o->gemm << " " << o->dtype << " " << o->pattern << " on "
              << o->arch << " (dense " << dense << " cycles); speedup over dense\n  sparsity";
    for (const auto& se : series) std::cout << "  " << se.name;
    std::cout << "\n";
    for (std::size_t i = 0; i < xs.size(); ++i) {
      csv << xs[i];
      char cell[64];
      std::snprintf(cell, sizeof cell, "  %8.3f", xs[i]);
      std::cout << cell;
      for (std::size_t j = 0; j < series.size(); ++j) {
        csv << "," << ys[j][i];
        std::snprintf(cell, sizeof cell, "  %*.3f",
                      int(std::max<std::size_t>(7, series[j].name.size())), ys[j][i]);
        std::cout << cell;
      }
      csv << "\n";
      std::cout << "\n";
    }
    write_atomically(o->out + "/crossover.csv", csv.str());
    for (std::size_t j = 0; j < series.size(); ++j) {
      const double cross = first_crossing(xs, ys[j]);
      std::cout << "  " << series[j].name << ": ";
      if (cross >= 0)
        std::cout << "first beats dense at sparsity " << cross << "\n";
      else
        std::cout << "never beats dense on these points\n";
    }
    // Names relative to the script's folder, so `gnuplot crossover.gp` reruns it there.
    std::ostringstream gp;
    gp << "set terminal png size 800,500 noenhanced\n"
       << sweep::gp_output("crossover.png")
       << "set datafile separator ','\nset xlabel 'weight sparsity'\nset ylabel 'speedup over "
          "dense'\n"
       << "set key left top\nset title "
       << sweep::gp_str(o->gemm + " " + o->dtype + " " + o->pattern + " (" + o->arch + ")")
       << "\nset grid\nplot ";
    for (std::size_t j = 0; j < series.size(); ++j)
      gp << "'crossover.csv' every ::1 using 1:" << j + 2 << " with linespoints title "
         << sweep::gp_str(series[j].name) << ", ";
    gp << "1 title 'dense' dt 2\n";
    write_atomically(o->out + "/crossover.gp", gp.str());
    const std::string gnuplot = sweep::find_gnuplot();
    const std::string err =
        gnuplot.empty() ? "gnuplot not found (install the Debian package gnuplot-nox)"
                        : sweep::run_gnuplot(gnuplot, o->out + "/crossover.gp", "crossover.png");
    if (!err.empty())
      std::cerr << "crossover: " << err << "\ncrossover: crossover.csv is written\n";
    else
      std::cout << "Wrote " << o->out << "/crossover.png\n";
    return 0;
  };
}

}  // namespace stcsim
