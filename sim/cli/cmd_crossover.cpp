// `stcsim crossover`: sweep the weight sparsity of one GEMM under a pruning pattern,
// print the speedup over dense at each point and the first sparsity where sparse beats
// dense, and plot the curve. Each point is a child `stcsim run` (SystemC allows one
// simulation per process); the dense baseline runs once.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/cli/output_paths.h"
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

using Args = std::vector<std::string>;

std::string joined(const Args& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

// Run `stcsim run ARGS` into `dir` and return its first op's cycles. The child gets its
// arguments as they are (no shell), so a name or value with quotes is only a value.
double run_point(const std::string& exe, const Args& args, const std::string& dir) {
  check_output_dir("--out", dir);
  std::error_code ec;
  std::filesystem::remove(dir + "/stats.json",
                          ec);  // an earlier run's must not be read as this one's
  Args argv{exe, "run"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-q", "--out", dir});
  const pid_t pid = sweep::spawn_child(argv, dir + ".log");
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw InputError("crossover: cannot wait for `stcsim run " + joined(args) +
                       "`: " + std::strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream log(dir + ".log");
    std::stringstream ss;
    ss << log.rdbuf();
    throw InputError("crossover: `stcsim run " + joined(args) + "` failed (" +
                     sweep::describe_wait_status(status) + "):\n" + ss.str());
  }
  try {
    std::ifstream in(dir + "/stats.json");
    return nlohmann::json::parse(in).at("ops").at(0).at("cycles").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError("crossover: " + dir + "/stats.json: no cycles of a first op (" + e.what() +
                     ")");
  }
}

// One curve: a name, its sparsities and the `stcsim run` arguments of its point at S.
struct Series {
  std::string name;
  std::vector<double> xs;
  std::function<Args(const std::string& s)> args;
  std::vector<double> ys;  // speedup over dense at each of xs
};

// A directory-safe form of a curve's name ("block:32x32" -> "block_32x32").
std::string dir_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return s;
}

std::vector<std::string> split_patterns(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

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
                  "and tensor cores over Vx1 column vectors, V = --vector), or 2:4; a comma "
                  "list overlays several in one plot (e.g. 2:4,block:32x32,unstructured)")
      ->capture_default_str();
  sub->add_option("--vector", o->vector, "unstructured: V of the tensor-core curve's Vx1 vectors")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub->add_option("--dtype", o->dtype, "input dtype")->capture_default_str();
  sub->add_option("--block-dist", o->dist, "nonzeros over rows: uniform|skewed")
      ->capture_default_str();
  sub->add_option("--points", o->points,
                  "sparsities to simulate (default 0..0.95 for blocks; 0.5..0.99 for unstructured; "
                  "2:4 is its one point at 0.5)")
      ->delimiter(',');
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter: section.key=value (repeatable)");
  sub->add_option("--out", o->out, "directory for the points, crossover.csv and crossover.png")
      ->required();
  sub->add_flag("-q,--quiet", o->quiet, "no progress line");
  return [o, sub] {
    const std::vector<std::string> patterns = split_patterns(o->pattern);
    if (patterns.empty()) throw InputError("--pattern: expected block:RxC, unstructured or 2:4");
    for (const auto& pat : patterns)
      if (pat != "2:4" && pat != "unstructured" && pat.rfind("block:", 0) != 0)
        throw InputError(
            "--pattern: expected block:RxC, unstructured or 2:4 (or a comma list), "
            "got '" +
            pat + "'");
    const bool points_given = sub->count("--points") > 0;
    for (double p : o->points)
      if (!(p >= 0 && p <= 1)) throw InputError("--points: sparsities must be in [0, 1]");
    const std::string exe = sweep::self_executable();  // the children run this very stcsim
    Args common{"--arch", o->arch, "--gemm", o->gemm, "--dtype", o->dtype, "--no-dense-baseline"};
    for (const auto& p : o->overrides) common.insert(common.end(), {"-p", p});
    check_output_dir("--out", o->out);
    std::vector<Series> series;
    const std::string dist = o->dist;
    auto with = [&common](const Args& extra) {
      Args a = common;
      a.insert(a.end(), extra.begin(), extra.end());
      return a;
    };
    for (const auto& pat : patterns) {
      if (pat == "2:4") {
        series.push_back({"2:4",
                          {0.5},
                          [with](const std::string&) {
                            return with({"--sparsity", "2:4"});
                          },
                          {}});
      } else if (pat == "unstructured") {
        const std::vector<double> xs =
            points_given ? o->points : std::vector<double>{0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99};
        series.push_back({"csr_cuda_cores",
                          xs,
                          [with, dist](const std::string& s) {
                            return with({"--unstructured", s, "--unstructured-kernel", "csr",
                                         "--block-dist", dist});
                          },
                          {}});
        const std::string v = std::to_string(o->vector);
        series.push_back({"tc_" + v + "x1_vectors",
                          xs,
                          [with, dist, v](const std::string& s) {
                            return with({"--unstructured", s, "--unstructured-kernel", "tc:" + v,
                                         "--block-dist", dist});
                          },
                          {}});
      } else {
        const std::string rc = pat.substr(6);
        series.push_back({pat,
                          o->points,
                          [with, rc, dist](const std::string& s) {
                            return with({"--block", rc + "@" + s, "--block-dist", dist});
                          },
                          {}});
      }
    }
    // The dense run, then every point of every curve, one child at a time.
    std::int64_t runs = 1;
    for (const auto& se : series) runs += std::int64_t(se.xs.size());
    sweep::ProgressLine progress(std::cerr, isatty(2), runs, 0, 0, {"simulations", false, 0});
    std::int64_t done = 0;
    auto ran = [&] {
      if (!o->quiet) progress.update(++done, 0, 0);
    };
    const double dense = run_point(exe, common, o->out + "/dense");
    ran();
    for (auto& se : series)
      for (std::size_t i = 0; i < se.xs.size(); ++i) {
        std::ostringstream x;
        x << se.xs[i];
        const std::string dir =
            o->out + "/p" + std::to_string(i) + (series.size() > 1 ? "_" + dir_name(se.name) : "");
        se.ys.push_back(dense / run_point(exe, se.args(x.str()), dir));
        ran();
      }
    if (!o->quiet) progress.finish(done, 0);
    // Every curve's sparsities, in order; a curve without a point at one is NaN there.
    std::vector<double> xs;
    for (const auto& se : series) xs.insert(xs.end(), se.xs.begin(), se.xs.end());
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    auto at = [](const Series& se, double x) {
      for (std::size_t i = 0; i < se.xs.size(); ++i)
        if (se.xs[i] == x) return se.ys[i];
      return std::numeric_limits<double>::quiet_NaN();
    };
    std::ostringstream csv;  // written whole, atomically, below
    csv << "sparsity";
    for (const auto& se : series) csv << "," << (series.size() > 1 ? se.name : "speedup");
    csv << "\n";
    std::cout << "crossover: " << o->gemm << " " << o->dtype << " " << o->pattern << " on "
              << o->arch << " (dense " << dense << " cycles); speedup over dense\n  sparsity";
    for (const auto& se : series) {
      const std::size_t w = std::max<std::size_t>(7, se.name.size());
      std::cout << "  " << std::string(w - std::min(w, se.name.size()), ' ') << se.name;
    }
    std::cout << "\n";
    for (double x : xs) {
      csv << x;
      char cell[64];
      std::snprintf(cell, sizeof cell, "  %8.3f", x);
      std::cout << cell;
      for (const auto& se : series) {
        const double y = at(se, x);
        const int w = int(std::max<std::size_t>(7, se.name.size()));
        if (std::isnan(y)) {
          csv << ",NaN";
          std::snprintf(cell, sizeof cell, "  %*s", w, "-");
        } else {
          csv << "," << y;
          std::snprintf(cell, sizeof cell, "  %*.3f", w, y);
        }
        std::cout << cell;
      }
      csv << "\n";
      std::cout << "\n";
    }
    write_atomically(o->out + "/crossover.csv", csv.str());
    std::vector<double> crossings;
    for (const auto& se : series) {
      crossings.push_back(first_crossing(se.xs, se.ys));
      std::cout << "  " << se.name << ": ";
      if (crossings.back() >= 0)
        std::cout << "first beats dense at sparsity " << crossings.back() << "\n";
      else
        std::cout << "never beats dense on these points\n";
    }
    // Names relative to the script's folder, so `gnuplot crossover.gp` reruns it there.
    std::ostringstream gp;
    gp << "set terminal png size 900,560 noenhanced\n"
       << sweep::gp_output("crossover.png")
       << "set datafile separator ','\nset datafile missing 'NaN'\n"
       << "set xlabel 'weight sparsity (fraction of the weights pruned away)'\n"
       << "set ylabel 'speedup over dense (x, same GEMM and GPU)'\n"
       << "set xrange [" << std::min(0.0, xs.front() - 0.02) << ":"
       << std::max(1.0, xs.back() + 0.02) << "]\nset xtics 0.1\nset mxtics 2\n"
       << "set key left top\nset title "
       << sweep::gp_str(o->gemm + " " + o->dtype + " " + o->pattern + " (" + o->arch + ")")
       << "\nset grid\n";
    // Each curve's crossing: an open circle on the dense line where it crosses, labelled
    // with the curve and the sparsity, in the curve's colour (labels stacked below).
    for (std::size_t j = 0; j < series.size(); ++j) {
      if (crossings[j] < 0) continue;
      char where[32];
      std::snprintf(where, sizeof where, "%.3g", crossings[j]);
      gp << "set label " << j + 1 << " " << sweep::gp_str(series[j].name + " > dense at " + where)
         << " at " << crossings[j] << ", 1 point pt 6 ps 2.5 lc " << j + 1 << " tc lt " << j + 1
         << " offset 1.5," << -1.5 - 1.3 * double(j) << "\n";
    }
    gp << "plot ";
    for (std::size_t j = 0; j < series.size(); ++j)
      gp << "'crossover.csv' every ::1 using 1:" << j + 2 << " with linespoints lt " << j + 1
         << " pt 7 ps 1.3 title " << sweep::gp_str(series[j].name) << ", ";
    gp << "1 title 'dense (1x)' lc rgb 'black' dt 2\n";
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
