#include "validation/compare/simulate.h"

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/mapping/harness_loop_instructions.h"
#include "sim/core/input_error.h"
#include "sim/sweep/child_process.h"

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

}  // namespace

bool simulation_args(const MeasuredGemm& g, const std::string& arch,
                     std::optional<double> clock_mhz, const std::vector<std::string>& overrides,
                     std::vector<std::string>& args, std::string& why) {
  if (!g.unusable.empty()) {
    why = g.unusable;
    return false;
  }
  const std::string& k = g.kernel;
  const bool sparse24 = k == "stcsim_sp24" || k == "cusparselt" || k == "torch_24_cutlass" ||
                        k == "torch_24_cusparselt";
  const bool dense = k == "stcsim_dense" || k == "cublas" || k == "cublaslt" || k == "torch_linear";
  const bool bsr = k == "stcsim_bsr" || k == "torch_bsr";  // the block-skipping kernel
  const bool csr = k == "stcsim_csr";                      // the row-split CSR SpMM
  if (!sparse24 && !dense && !bsr && !csr) {
    why = "kernel '" + k +
          "' has no simulated counterpart (known: stcsim_dense, stcsim_sp24, stcsim_bsr, "
          "stcsim_csr, cublas, cublaslt, cusparselt, torch_linear, torch_24_cutlass, "
          "torch_24_cusparselt, torch_bsr)";
    return false;
  }
  if (bsr && (g.block_rows <= 0 || g.block_cols <= 0 || !(g.pruned >= 0 && g.pruned < 1))) {
    why = "block-sparse entry without its block shape and sparsity (entry.bsr)";
    return false;
  }
  if (bsr && (g.block_rows > 64 || g.block_cols > 64)) {
    why = "block-sparse with " + std::to_string(g.block_rows) + "x" + std::to_string(g.block_cols) +
          " blocks: the simulator's block maps go up to 64x64";
    return false;
  }
  if (csr && !(g.pruned >= 0 && g.pruned < 1)) {
    why = "CSR entry without its sparsity (entry.csr)";
    return false;
  }
  auto level = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  // What the kernel ran: our kernels' zero-padded problem where the harness padded it.
  args = {"run", "--arch", arch, "--gemm", g.ran_shape(), "--dtype", g.dtype, "--l2", g.l2};
  if (sparse24) args.insert(args.end(), {"--sparsity", "2:4", "--no-dense-baseline"});
  // Our 2:4 kernel issues its warp tile column by column (validation/cuda/sp24_kernel.cuh: B
  // loaded once per column of mma.sp); the others row by row, the mapping's default.
  if (k == "stcsim_sp24") args.insert(args.end(), {"-p", "mapping.mma_order=columns"});
  // Our kernels wait and sync at the top of each k-tile, after the last mma of the one
  // before (validation/cuda/dense_mainloop.cuh, sp24_kernel.cuh), not at CUTLASS's last k-sub.
  if (k == "stcsim_dense" || k == "stcsim_sp24" || k == "stcsim_bsr")
    args.insert(args.end(), {"-p", "mapping.barrier_point=ktile_end"});
  // Our kernels convert the accumulators to the output dtype before the tile goes through
  // shared memory (validation/cuda/cta_tile.cuh store_tile); CUTLASS's sm80 epilogues
  // stage the fp32 accumulators (the default, taken for the libraries too).
  if (k == "stcsim_dense" || k == "stcsim_sp24" || k == "stcsim_bsr")
    args.insert(args.end(), {"-p", "mapping.epilogue_staging=output"});
  // The simulator's synthetic maps keep the same count per block row (per row), as the
  // measured kernels' pruning does: round(density x block columns), and at least one
  // (validation/harness/operands.cpp), so a narrow weight at 90% keeps a block a row rather
  // than none. Which blocks are kept differs, their number does not.
  if (bsr)
    args.insert(args.end(), {"--block",
                             std::to_string(g.block_rows) + "x" + std::to_string(g.block_cols) +
                                 "@" + level(g.pruned),
                             "--block-min-per-row", "1"});
  if (csr)
    args.insert(args.end(), {"--unstructured", level(g.pruned), "--unstructured-kernel", "csr",
                             "-p", "mapping.csr_gather_loop=" + g.csr_gather_loop});
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
  // What our kernels issue besides mma and fragment loads where it holds the loads back:
  // each k-tile's copies and addresses after its barrier, the 2:4 kernel's rolled k-sub
  // loop (counted in their PTX, and their cycles in their SASS:
  // models/mapping/harness_loop_instructions.h).
  if (g.mapping && (k == "stcsim_dense" || k == "stcsim_sp24" || k == "stcsim_bsr")) {
    const MeasuredMapping& m = *g.mapping;
    KernelMapping tile;
    tile.cta_m = m.cta_m, tile.cta_n = m.cta_n, tile.cta_k = m.cta_k;
    tile.warp_m = m.warp_m, tile.warp_n = m.warp_n, tile.stages = m.stages;
    if (const auto loop = harness_loop_instructions(k.substr(std::strlen("stcsim_")), tile)) {
      p("mapping.ktile_prelude_instructions=" + std::to_string(loop->ktile_prelude));
      p("mapping.ktile_copy_instructions=" + std::to_string(loop->ktile_copy_instructions));
      p("mapping.ktile_prelude_cycles=" + std::to_string(loop->ktile_prelude_cycles));
      p("mapping.ktile_copy_cycles=" + std::to_string(loop->ktile_copy_cycles));
      if (loop->rolled_ksubs) {
        p("mapping.ksub_loop=rolled");
        p("mapping.ksub_prelude_instructions=" + std::to_string(loop->ksub_prelude));
        p("mapping.ksub_prelude_cycles=" + std::to_string(loop->ksub_prelude_cycles));
        p("mapping.ksub_rest_from=" + std::to_string(loop->ksub_rest_from));
        p("mapping.ksub_rest_gap=" + std::to_string(loop->ksub_rest_gap));
      }
    }
  }
  // A measured clock is the power controller's answer already: the simulation runs and
  // is timed at it, and a power model does not settle a second time (models/power).
  if (clock_mhz) p("gpu.measured_clock_mhz=" + format_clock(*clock_mhz));
  for (const auto& o : overrides) p(o);
  return true;
}

std::optional<double> observed_clock(const MeasurementFile& f, const MeasuredGemm& g,
                                     bool preset_clock) {
  if (preset_clock) return std::nullopt;
  return g.sm_clock_mhz ? g.sm_clock_mhz : f.sm_clock_mhz;
}

std::string sim_folder_name(std::size_t index, const MeasuredGemm& g) {
  return std::to_string(index) + "_" + g.kernel + "_" + g.shape();
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
    if (m.value("split_k", 1) > 1)
      r.mapping += " splitK" + std::to_string(m.at("split_k").get<int>());
    r.ctas_per_sm = op.at("occupancy").at("ctas_per_sm").get<int>();
    const auto& hw = j.at("config").at("hardware");
    // The clock the op's seconds are at (the power model's settled or measured one, the
    // measured one, the preset's: whichever the run used), read off the op itself.
    // (to the kHz: the division leaves a last-bit residue).
    r.clock_mhz = r.seconds > 0 ? std::round(r.cycles / r.seconds * 1e-3) * 1e-3 : 0.0;
    r.numerics_preset =
        hw.at("tensor_core").at("params").at("numerics").at("value").get<std::string>();
    r.dram_read_bytes = op.value("dram_read_bytes", 0.0);
    r.instruction = op.value("instruction", "");
    r.num_sms =
        hw.at("gpu").at("params").value("num_sms", nlohmann::json::object()).value("value", 0);
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": unexpected stats.json: " + e.what());
  }
}

std::vector<SimResult> run_simulations(const std::string& binary, const std::vector<SimJob>& jobs,
                                       int parallel, const SimProgress& on_done) {
  std::vector<SimResult> results(jobs.size());
  std::size_t done = 0;
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
      throw InputError((job.source.empty() ? "" : job.source + ": ") + "simulation failed (" +
                       sweep::describe_wait_status(status) + "): " + cmd + "\n" +
                       slurp(job.out_dir + "/log.txt"));
    }
    if (job.ubench) {
      try {
        results[idx].ubench = nlohmann::json::parse(slurp(job.out_dir + "/ubench.json"));
      } catch (const nlohmann::json::exception& e) {
        throw InputError(job.out_dir + "/ubench.json: unreadable: " + e.what());
      }
    } else {
      results[idx] = read_stats(job.out_dir + "/stats.json");
    }
    if (on_done) on_done(++done, int(running.size()));
  };
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && int(running.size()) < std::max(1, parallel)) {
      const SimJob& job = jobs[next];
      fs::create_directories(job.out_dir);
      // The sweeps' spawner: the child dies with us, its stdout and stderr go to log.txt.
      std::vector<std::string> argv{binary};
      argv.insert(argv.end(), job.args.begin(), job.args.end());
      argv.insert(argv.end(), {"--out", job.out_dir, "-q"});
      const std::string log = job.out_dir + "/log.txt";
      fs::remove(log);
      running[sweep::spawn_child(argv, log)] = next;
      ++next;
    }
    finish_one();
  }
  return results;
}

}  // namespace stcsim::validation
