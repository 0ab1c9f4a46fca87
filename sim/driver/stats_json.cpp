#include "sim/driver/stats_json.h"

#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"

namespace stcsim {

namespace {

// The units block of schema 1, as the golden regression pins it. Every stat's own unit
// is in its declaration (`stcsim stats`); writing this block from the declarations would
// add lines to every golden file, a deliberate golden update not yet made.
nlohmann::json units() {
  return {{"cycles", "core clock cycles"},
          {"seconds", "s (cycles / gpu.clock_mhz)"},
          {"tflops", "1e12 operations/s (2 per FMA; TOP/s for int8)"},
          {"peak_tflops", "1e12 operations/s: tensor-core peak for the dtype"},
          {"flops", "operations (2 per FMA of the dense GEMM, also for sparse ones)"},
          {"products", "real multiplies (N/M of the dense count for an N:M operand)"},
          {"dense_cycles", "core clock cycles of the same GEMM run dense on the same GPU"},
          {"speedup_vs_dense", "dense seconds / sparse seconds"},
          {"reduction_factors",
           "speedup = work_reduction x efficiency_ratio x capability_ratio (docs/sparse.md)"},
          {"utilization", "fraction of the op's cycles the resource was busy (0..1)"},
          {"stall_pipe_cycles", "tensor-pipe idle cycles by cause, summed over all sub-core pipes"},
          {"dram_read_bytes", "bytes"},
          {"dram_write_bytes", "bytes"},
          {"dram_gbps", "1e9 bytes/s"},
          {"l2_read_hit_rate", "fraction of read sectors that hit (0..1)"},
          {"waves", "CTAs / (SMs x CTAs per SM)"},
          {"wall_seconds", "s of host time for the whole simulation"}};
}

}  // namespace

nlohmann::json op_to_json(const OpResult& r, bool details) {
  // Every declared stat (sim/core/stat.h); a total leaves out the per-op ones.
  return StatRegistry<OpResult>::to_json(r, !details);
}

nlohmann::json stats_json(const RunRequest& req, const RunResult& res) {
  nlohmann::json j;
  j["schema_version"] = 1;
  j["arch"] = req.config.name;
  j["total"] = op_to_json(res.total, false);
  j["total"]["wall_seconds"] = res.wall_seconds;
  j["ops"] = nlohmann::json::array();
  for (std::size_t i = 0; i < res.ops.size(); ++i) {
    j["ops"].push_back(op_to_json(res.ops[i], true));
    if (i < res.functional.size()) j["ops"][i]["functional"] = res.functional[i];
  }
  j["config"] = req.config.to_json();
  j["units"] = units();
  return j;
}

void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir + ": cannot create output directory: " + ec.message());
  const fs::path final_path = fs::path(dir) / name;
  const fs::path tmp = fs::path(dir) / ("." + name + ".tmp");
  {
    std::ofstream out(tmp);
    if (!out) throw InputError(tmp.string() + ": cannot write");
    out << text;
    out.flush();
    if (!out) throw InputError(tmp.string() + ": write failed");
  }
  fs::rename(tmp, final_path, ec);
  if (ec) throw InputError(final_path.string() + ": cannot replace: " + ec.message());
}

}  // namespace stcsim
