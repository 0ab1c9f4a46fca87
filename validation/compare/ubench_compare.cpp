#include "validation/compare/ubench_compare.h"

#include <cstdio>
#include <map>

#include "sim/core/input_error.h"
#include "validation/compare/measurements.h"

namespace stcsim::validation {

using nlohmann::json;

namespace {

constexpr long long kGemm = 4096;                      // the saturating GEMM's M = N = K
constexpr long long kStreamM = 16, kStreamNK = 16384;  // the weight-streaming GEMM

std::string gemm_text(long long m, long long n, long long k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// The counterpart of a (name, metric), or why there is none.
bool counterpart(UbenchRow& r, const std::string& arch, std::optional<double> clock_mhz,
                 const std::vector<std::string>& overrides) {
  const bool mma = r.name.rfind("mma_sync_m16n8k16", 0) == 0;
  const bool mma_sp = r.name.rfind("mma_sp_", 0) == 0;
  const bool wg = r.name.rfind("wgmma_m64n", 0) == 0, wg_sp = r.name.rfind("wgmma_sp_m64n", 0) == 0;
  std::vector<std::string> a = {"run", "--arch", arch, "--dtype", "fp16"};
  const std::string gemm = gemm_text(kGemm, kGemm, kGemm);
  if (r.metric == "throughput" && r.unit == "flop/clk/SM" && (mma || mma_sp)) {
    // The sm80 mainloop issues mma.sync / mma.sp, whatever the preset would choose.
    a.insert(a.end(), {"--gemm", gemm, "-p", "mapping.kernel=multistage_gemm"});
    if (mma_sp) a.insert(a.end(), {"--sparsity", "2:4", "--no-dense-baseline"});
    r.expect_instruction = mma_sp ? "m16n8k32 2:4" : "m16n8k16";
    r.workload = std::string(mma_sp ? "2:4 " : "dense ") + gemm +
                 " GEMM, multistage_gemm: 2MNK / (cycles x SMs)";
  } else if (r.metric == "throughput" && r.unit == "flop/clk/SM" && (wg || wg_sp)) {
    // The warp-specialized kernel with cta_n = N issues wgmma m64nNk16 (k32 for 2:4).
    const std::string n = r.name.substr(
        r.name.find("m64n") + 4, r.name.find('k', r.name.find("m64n")) - r.name.find("m64n") - 4);
    a.insert(a.end(), {"--gemm", gemm, "-p", "mapping.kernel=warp_specialized_gemm", "-p",
                       "mapping.cta_n=" + n});
    if (wg_sp) a.insert(a.end(), {"--sparsity", "2:4", "--no-dense-baseline"});
    r.expect_instruction = "wgmma m64n" + n + (wg_sp ? "k32 2:4" : "k16");
    r.workload = std::string(wg_sp ? "2:4 " : "dense ") + gemm +
                 " GEMM, warp_specialized_gemm cta_n " + n + ": 2MNK / (cycles x SMs)";
  } else if (r.name == "dram_read" && r.metric == "bandwidth" && r.unit == "GB/s") {
    a.insert(a.end(), {"--gemm", gemm_text(kStreamM, kStreamNK, kStreamNK)});
    r.workload = "weight-streaming " + gemm_text(kStreamM, kStreamNK, kStreamNK) +
                 " GEMM: DRAM reads / time";
    r.expect_instruction = "";
  } else {
    if (r.metric == "latency")
      r.why_not =
          "latency: the simulator runs no single dependent-instruction or pointer-chase workload";
    else if (r.name == "dram_read")
      r.why_not = "compared as GB/s (the bandwidth row)";
    else
      r.why_not =
          "no simulated workload isolates this path (shared memory, cp.async, bulk copy, L2)";
    return false;
  }
  auto p = [&](const std::string& kv) { a.insert(a.end(), {"-p", kv}); };
  if (clock_mhz) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "gpu.measured_clock_mhz=%.1f", *clock_mhz);
    p(buf);
  }
  for (const auto& o : overrides) p(o);
  r.args = a;
  return true;
}

}  // namespace

std::vector<UbenchFile> load_ubench(const std::string& file_or_dir) {
  std::vector<UbenchFile> out;
  for (const auto& [path, j] : read_json_files(file_or_dir)) {
    if (!is_ubench_file(j)) continue;
    UbenchFile f;
    f.path = path;
    try {
      f.synthetic = j.value("synthetic", false);
      f.device_name = j.at("device").at("name").get<std::string>();
      for (const json& r : j.at("results"))
        f.results.push_back({path, r.at("name").get<std::string>(),
                             r.at("metric").get<std::string>(), r.at("unit").get<std::string>(),
                             r.value("what", ""), r.at("value").get<double>(),
                             r.value("params", json::object())});
    } catch (const json::exception& e) {
      throw InputError(path + ": malformed stcsim-ubench/1 file: " + e.what());
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<UbenchRow> ubench_rows(const std::vector<UbenchFile>& files, const std::string& arch,
                                   std::optional<double> clock_mhz,
                                   const std::vector<std::string>& overrides) {
  std::vector<UbenchRow> rows;
  std::map<std::string, std::size_t> index;  // "name|metric" -> row
  for (const UbenchFile& f : files)
    for (const UbenchFigure& fig : f.results) {
      const std::string key = fig.name + "|" + fig.metric;
      auto it = index.find(key);
      if (it == index.end()) {
        it = index.emplace(key, rows.size()).first;
        UbenchRow row;  // members by name: a partial aggregate warns (-Werror in CI)
        row.name = fig.name;
        row.metric = fig.metric;
        row.unit = fig.unit;
        row.measured = fig.value;
        rows.push_back(row);
      }
      UbenchRow& r = rows[it->second];
      ++r.configurations;
      // Throughput and bandwidth: the best configuration; latency: the lowest.
      if (fig.metric == "latency" ? fig.value < r.measured : fig.value > r.measured)
        r.measured = fig.value;
    }
  for (UbenchRow& r : rows) r.simulated = counterpart(r, arch, clock_mhz, overrides);
  return rows;
}

void set_prediction(UbenchRow& row, const SimResult& sim) {
  if (sim.instruction.find(row.expect_instruction) == std::string::npos) {
    row.simulated = false;
    row.why_not =
        "the counterpart ran '" + sim.instruction + "', not '" + row.expect_instruction + "'";
    return;
  }
  if (row.unit == "flop/clk/SM") {
    const double flops = 2.0 * double(kGemm) * kGemm * kGemm;  // dense-equivalent
    row.predicted = sim.cycles > 0 && sim.num_sms > 0 ? flops / (sim.cycles * sim.num_sms) : 0;
  } else {
    row.predicted = sim.seconds > 0 ? sim.dram_read_bytes / sim.seconds / 1e9 : 0;
  }
}

std::string format_ubench(const std::vector<UbenchRow>& rows) {
  std::string o = "\nMicrobenchmarks (stcsim-ubench/1) against simulated counterparts:\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-34s %-10s %-12s %12s %12s %8s  %s\n", "benchmark", "metric",
                "unit", "measured", "predicted", "error", "counterpart");
  o += line;
  int without = 0;
  for (const UbenchRow& r : rows) {
    if (!r.simulated) {
      ++without;
      continue;
    }
    std::snprintf(line, sizeof line, "%-34s %-10s %-12s %12.1f %12.1f %7.1f%%  %s\n",
                  r.name.c_str(), r.metric.c_str(), r.unit.c_str(), r.measured, r.predicted,
                  r.error_percent(), r.workload.c_str());
    o += line;
  }
  if (without) {
    o += "No simulated counterpart yet (" + std::to_string(without) + " figures):\n";
    for (const UbenchRow& r : rows)
      if (!r.simulated) {
        std::snprintf(line, sizeof line, "  %-34s %-10s %12.1f %-12s %s\n", r.name.c_str(),
                      r.metric.c_str(), r.measured, r.unit.c_str(), r.why_not.c_str());
        o += line;
      }
  }
  return o;
}

json ubench_json(const std::vector<UbenchRow>& rows) {
  json out = json::array();
  for (const UbenchRow& r : rows) {
    json j{{"name", r.name},
           {"metric", r.metric},
           {"unit", r.unit},
           {"measured", r.measured},
           {"configurations", r.configurations},
           {"simulated", r.simulated}};
    if (r.simulated) {
      j["counterpart"] = r.workload;
      j["predicted"] = r.predicted;
      j["error_percent"] = r.error_percent();
    } else {
      j["why_not"] = r.why_not;
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace stcsim::validation
