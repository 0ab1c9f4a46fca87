#include "sim/driver/stats_json.h"

#include <filesystem>
#include <fstream>
#include <variant>

#include "sim/core/input_error.h"

namespace stcsim {

namespace {

nlohmann::json units() {
  return {{"cycles", "core clock cycles"},
          {"seconds", "s (cycles / gpu.clock_mhz)"},
          {"tflops", "1e12 operations/s (2 per FMA; TOP/s for int8)"},
          {"peak_tflops", "1e12 operations/s: tensor-core peak for the dtype"},
          {"flops", "operations (2 per FMA of the dense GEMM, also for sparse ones)"},
          {"products", "real multiplies (N/M of the dense count for an N:M operand)"},
          {"dense_cycles", "core clock cycles of the same GEMM run dense on the same GPU"},
          {"speedup_vs_dense", "dense seconds / sparse seconds"},
          {"reduction_factors", "speedup = work_reduction x efficiency_ratio x capability_ratio (docs/sparse.md)"},
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
  nlohmann::json j;
  j["name"] = r.op.name;
  j["cycles"] = r.cycles;
  j["seconds"] = r.seconds;
  j["tflops"] = r.tflops;
  j["peak_tflops"] = r.peak_tflops;
  j["fraction_of_peak"] = r.peak_tflops > 0 ? r.tflops / r.peak_tflops : 0.0;
  j["flops"] = r.flops;
  j["limiter"] = r.limiter;
  j["utilization"] = {{"tensor", r.util_tensor}, {"smem", r.util_smem}, {"l2", r.util_l2},
                      {"dram", r.util_dram}, {"l2_link", r.util_l2_link}};
  if (r.on_cuda_cores) {
    j["utilization"]["cuda_cores"] = r.util_cuda;
    j["l1_hit_rate"] = r.l1_hit_rate;
  } else if (r.util_cuda > 0) {  // a total over runs with CSR ops
    j["utilization"]["cuda_cores"] = r.util_cuda;
  }
  j["l2_read_hit_rate"] = r.l2_read_hit_rate;
  j["dram_read_bytes"] = r.dram_read_bytes;
  j["dram_write_bytes"] = r.dram_write_bytes;
  j["dram_gbps"] = r.dram_gbps;
  nlohmann::json st;
  st["busy"] = r.pipe_busy;
  for (int i = 0; i < int(StallCause::kCount); ++i) st[to_string(StallCause(i))] = r.stalls.cycles[i];
  st["no_work"] = std::max(0.0, r.pipe_cycles - r.pipe_busy - r.stalls.total());
  j["stall_pipe_cycles"] = st;
  j["products"] = r.products;
  if (r.dense_cycles > 0) {
    j["dense_cycles"] = r.dense_cycles;
    j["speedup_vs_dense"] = r.speedup;
    j["reduction_factors"] = {{"work_reduction", r.work_reduction},
                              {"efficiency_ratio", r.efficiency_ratio},
                              {"capability_ratio", r.capability_ratio}};
  }
  if (details) {
    j["m"] = r.op.m;
    j["n"] = r.op.n;
    j["k"] = r.op.k;
    j["dtype"] = to_string(r.op.dtype);
    j["sparsity"] = r.op.sparsity.str();
    j["batch"] = r.op.batch;
    if (!r.op.weight_pattern.empty())
      j["weight_pattern"] = r.op.weight_pattern + " (" +
                            (r.weight_path.empty() ? std::string("not exploited: dense datapath") : r.weight_path) + ")";
    if (!r.kernel_section.empty()) {
      nlohmann::json& ks = j[r.kernel_section];
      for (const auto& [key, v] : r.kernel_stats) std::visit([&ks, &key = key](const auto& x) { ks[key] = x; }, v);
    }
    j["instruction"] = r.instruction;
    const auto& m = r.mapping;
    j["mapping"] = {{"cta_m", m.cta_m}, {"cta_n", m.cta_n}, {"cta_k", m.cta_k},
                    {"warp_m", m.warp_m}, {"warp_n", m.warp_n}, {"stages", m.stages},
                    {"swizzle", m.swizzle}, {"split_k", m.split_k},
                    {"smem_layout", to_string(m.layout)}, {"chosen_by", m.chosen_by}};
    j["occupancy"] = {{"ctas_per_sm", r.occupancy.ctas_per_sm}, {"limited_by", r.occupancy.limited_by}};
    j["ctas"] = r.ctas;
    j["waves"] = r.waves;
  }
  return j;
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

void write_file_atomically(const std::string& dir, const std::string& name, const std::string& text) {
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
