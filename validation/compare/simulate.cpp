#include "validation/compare/simulate.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/core/input_error.h"

extern char** environ;

namespace stcsim::validation {

namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string format_clock(double mhz) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", mhz);
  return buf;
}

// Starts `binary args...` with stdout/stderr into files in out_dir.
pid_t spawn(const std::string& binary, const std::vector<std::string>& args,
            const std::string& out_dir) {
  std::vector<std::string> all{binary};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string out = out_dir + "/stdout.txt", err = out_dir + "/stderr.txt";
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, binary.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw InputError("cannot start " + binary + ": " + std::string(std::strerror(rc)));
  return pid;
}

}  // namespace

bool simulation_args(const MeasuredGemm& g, const std::string& arch,
                     std::optional<double> clock_mhz, const std::vector<std::string>& overrides,
                     std::vector<std::string>& args, std::string& why) {
  const bool sparse24 = g.kernel == "stcsim_sp24" || g.kernel == "cusparselt";
  const bool dense = g.kernel == "stcsim_dense" || g.kernel == "cublas" || g.kernel == "cublaslt";
  if (g.kernel == "stcsim_bsr") {
    why = "block-sparse: the simulator has no block-sparse model yet";
    return false;
  }
  if (!sparse24 && !dense) {
    why = "unknown kernel '" + g.kernel + "'";
    return false;
  }
  args = {"run", "--arch", arch, "--gemm", g.shape(), "--dtype", g.dtype};
  if (sparse24) args.insert(args.end(), {"--sparsity", "2:4", "--no-dense-baseline"});
  auto p = [&](const std::string& kv) { args.insert(args.end(), {"-p", kv}); };
  if (g.mapping) {
    const MeasuredMapping& m = *g.mapping;
    p("mapping.cta_m=" + std::to_string(m.cta_m));
    p("mapping.cta_n=" + std::to_string(m.cta_n));
    p("mapping.cta_k=" + std::to_string(m.cta_k));
    p("mapping.warp_m=" + std::to_string(m.warp_m));
    p("mapping.warp_n=" + std::to_string(m.warp_n));
    p("mapping.stages=" + std::to_string(m.stages));
    p("mapping.swizzle=" + std::to_string(m.swizzle));
    p("mapping.split_k=" + std::to_string(m.split_k));
    p("mapping.smem_layout=" + m.smem_layout);
  }
  if (clock_mhz) p("gpu.clock_mhz=" + format_clock(*clock_mhz));
  for (const auto& o : overrides) p(o);
  return true;
}

SimResult read_stats(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(slurp(path));
    SimResult r;
    const auto& op = j.at("ops").at(0);
    r.seconds = op.at("seconds").get<double>();
    r.cycles = op.at("cycles").get<double>();
    const auto& m = op.at("mapping");
    r.mapping = std::to_string(m.at("cta_m").get<int>()) + "x" +
                std::to_string(m.at("cta_n").get<int>()) + "x" +
                std::to_string(m.at("cta_k").get<int>()) + "/" +
                std::to_string(m.at("warp_m").get<int>()) + "x" +
                std::to_string(m.at("warp_n").get<int>()) + " s" +
                std::to_string(m.at("stages").get<int>()) + " sw" +
                std::to_string(m.at("swizzle").get<int>());
    r.ctas_per_sm = op.at("occupancy").at("ctas_per_sm").get<int>();
    const auto& hw = j.at("config").at("hardware");
    r.clock_mhz = hw.at("gpu").at("params").at("clock_mhz").at("value").get<double>();
    r.numerics_preset =
        hw.at("tensor_core").at("params").at("numerics").at("value").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": unexpected stats.json: " + e.what());
  }
}

std::vector<SimResult> run_simulations(const std::string& binary, const std::vector<SimJob>& jobs,
                                       int parallel) {
  std::vector<SimResult> results(jobs.size());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  auto finish_one = [&] {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    auto it = running.find(pid);
    if (it == running.end()) return;
    const std::size_t idx = it->second;
    const SimJob& job = jobs[idx];
    running.erase(it);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      for (const auto& r : running) ::waitpid(r.first, nullptr, 0);  // let the others end first
      running.clear();
      std::string cmd = binary;
      for (const auto& a : job.args) cmd += " " + a;
      throw InputError("simulation failed: " + cmd + "\n" + slurp(job.out_dir + "/stderr.txt"));
    }
    results[idx] = read_stats(job.out_dir + "/stats.json");
  };
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && int(running.size()) < std::max(1, parallel)) {
      const SimJob& job = jobs[next];
      fs::create_directories(job.out_dir);
      std::vector<std::string> args = job.args;
      args.insert(args.end(), {"--out", job.out_dir, "-q"});
      running[spawn(binary, args, job.out_dir)] = next;
      ++next;
    }
    finish_one();
  }
  return results;
}

}  // namespace stcsim::validation
