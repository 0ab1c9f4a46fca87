// `stcsim crossover`: sweep the weight sparsity of one GEMM under a pruning pattern,
// print the speedup over dense at each point and the first sparsity where sparse beats
// dense, and plot the curve. Each point is a child `stcsim run` (SystemC allows one
// simulation per process); the dense baseline runs once.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace {
struct CrossoverOptions {
  std::string arch = "a100", gemm, pattern = "block:32x32", dtype = "fp16", dist = "uniform", out;
  std::vector<double> points{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
  std::vector<std::string> overrides;
};

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError("crossover: cannot find the stcsim binary (/proc/self/exe)");
  return p.string();
}

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
}  // namespace

Command add_crossover_command(CLI::App& app) {
  auto o = std::make_shared<CrossoverOptions>();
  auto* sub = app.add_subcommand("crossover",
                                 "Sweep weight sparsity for one GEMM under a pattern (block:RxC, "
                                 "or 2:4 at its fixed 50%), print the "
                                 "speedup over dense and the first sparsity where it exceeds 1, "
                                 "write crossover.csv and crossover.png");
  sub->add_option("--arch", o->arch, "preset name or YAML file")->capture_default_str();
  sub->add_option("--gemm", o->gemm, "the GEMM as MxNxK")->required();
  sub->add_option("--pattern", o->pattern, "block:RxC (1x1 to 64x64) or 2:4")
      ->capture_default_str();
  sub->add_option("--dtype", o->dtype, "input dtype")->capture_default_str();
  sub->add_option("--block-dist", o->dist, "block maps: uniform|skewed")->capture_default_str();
  sub->add_option("--points", o->points, "sparsities to simulate (block patterns)")->delimiter(',');
  sub->add_option("-p,--param", o->overrides,
                  "override a parameter: section.key=value (repeatable)");
  sub->add_option("--out", o->out, "directory for the points, crossover.csv and crossover.png")
      ->required();
  return [o] {
    const bool nm = o->pattern == "2:4";
    if (!nm && o->pattern.rfind("block:", 0) != 0)
      throw InputError("--pattern: expected block:RxC or 2:4, got '" + o->pattern + "'");
    const std::string exe = self_exe();
    std::string common = "--arch '" + o->arch + "' --gemm " + o->gemm + " --dtype " + o->dtype +
                         " --no-dense-baseline";
    for (const auto& p : o->overrides) common += " -p '" + p + "'";
    std::filesystem::create_directories(o->out);
    const double dense = run_point(exe, common, o->out + "/dense");
    std::vector<std::pair<double, double>> curve;  // (sparsity, speedup)
    if (nm) {
      curve.push_back({0.5, dense / run_point(exe, common + " --sparsity 2:4", o->out + "/sp24")});
    } else {
      const std::string rc = o->pattern.substr(6);
      for (std::size_t i = 0; i < o->points.size(); ++i) {
        std::ostringstream s;
        s << o->points[i];
        const double c =
            run_point(exe, common + " --block " + rc + "@" + s.str() + " --block-dist " + o->dist,
                      o->out + "/p" + std::to_string(i));
        curve.push_back({o->points[i], dense / c});
      }
    }
    std::ofstream csv(o->out + "/crossover.csv");
    csv << "sparsity,speedup\n";
    std::cout << "crossover: " << o->gemm << " " << o->dtype << " " << o->pattern << " on "
              << o->arch << " (dense " << dense << " cycles)\n  sparsity  speedup\n";
    double cross = -1;
    for (std::size_t i = 0; i < curve.size(); ++i) {
      const auto [s, v] = curve[i];
      csv << s << "," << v << "\n";
      char line[64];
      std::snprintf(line, sizeof line, "  %8.3f  %7.3f\n", s, v);
      std::cout << line;
      if (cross < 0 && v > 1.0) {
        // Linear interpolation from the previous point, when it was below 1.
        cross = s;
        if (i > 0 && curve[i - 1].second <= 1.0)
          cross = curve[i - 1].first + (1.0 - curve[i - 1].second) / (v - curve[i - 1].second) *
                                           (s - curve[i - 1].first);
      }
    }
    csv.close();
    if (cross >= 0)
      std::cout << "  sparse first beats dense at sparsity " << cross << "\n";
    else
      std::cout << "  sparse never beats dense on these points\n";
    std::ofstream gp(o->out + "/crossover.gp");
    gp << "set terminal png size 800,500\nset output '" << o->out << "/crossover.png'\n"
       << "set datafile separator ','\nset xlabel 'weight sparsity'\nset ylabel 'speedup over "
          "dense'\n"
       << "set title '" << o->gemm << " " << o->pattern << " (" << o->arch << ")'\nset grid\n"
       << "plot '" << o->out
       << "/crossover.csv' every ::1 using 1:2 with linespoints title 'sparse', 1 title 'dense'\n";
    gp.close();
    if (std::system(
            ("gnuplot '" + o->out + "/crossover.gp' 2> '" + o->out + "/gnuplot.log'").c_str()) != 0)
      std::cerr << "crossover: gnuplot failed (see " << o->out
                << "/gnuplot.log); crossover.csv is written\n";
    else
      std::cout << "Wrote " << o->out << "/crossover.png\n";
    return 0;
  };
}

}  // namespace stcsim
