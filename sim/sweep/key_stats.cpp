#include "sim/sweep/key_stats.h"

#include <algorithm>

#include "models/common/dtype.h"

namespace stcsim::sweep {

namespace {

const nlohmann::json* find_param(const nlohmann::json& hw, const std::string& section,
                                 const std::string& key) {
  if (!hw.contains(section) || !hw[section].contains("params") ||
      !hw[section]["params"].contains(key))
    return nullptr;
  return &hw[section]["params"][key]["value"];
}

// Multipliers of the tensor cores over the GPU, per cycle, for the run's dtype: SMs x
// sub-core pipes x the dense mma's FMAs / its initiation interval, or a wgmma slice's
// m16 x n8 step / its cycles where that is faster (Hopper's fp8 mma.sync is emulated at
// half its wgmma rate). A sparse run uses the same multipliers (it skips work, it does
// not add hardware), so this is the area proxy.
double tensor_core_width(const nlohmann::json& s) {
  const auto& hw = s.at("config").at("hardware");
  const auto& ops = s.at("ops");
  const std::string dtype = ops.empty() ? "fp16" : ops[0].value("dtype", "fp16");
  const auto* ii = find_param(hw, "tensor_core", dtype + "_ii_cycles");
  const auto* wg = find_param(hw, "tensor_core", "wgmma_" + dtype + "_cycles_per_n8");
  const auto* sms = find_param(hw, "gpu", "num_sms");
  const auto* subs = find_param(hw, "sm", "sub_cores");
  if (ii && sms && subs && ii->get<double>() > 0) {
    const double fma = double(dense_mma_shape(parse_dtype(dtype)).fma());
    double per_pipe = fma / ii->get<double>();  // an m16n8 step per interval
    if (wg && wg->get<double>() > 0) per_pipe = std::max(per_pipe, fma / wg->get<double>());
    return sms->get<double>() * subs->get<double>() * per_pipe;
  }
  // Another tensor-core model: from the peak (2 x MACs x clock), dense-equivalent for
  // sparse runs, so divided by their work reduction.
  const auto* mhz = find_param(hw, "gpu", "clock_mhz");
  const auto& t = s.at("total");
  double width = mhz && mhz->get<double>() > 0
                     ? t.value("peak_tflops", 0.0) * 1e12 / 2.0 / (mhz->get<double>() * 1e6)
                     : 0.0;
  if (t.contains("reduction_factors")) width /= t["reduction_factors"].value("work_reduction", 1.0);
  return width;
}

}  // namespace

nlohmann::json key_stats(const nlohmann::json& s) {
  nlohmann::json k = s.at("total");
  k.erase("wall_seconds");
  k.erase("name");
  k["ops"] = s.at("ops").size();
  k["arch"] = s.value("arch", "");
  k["tc_macs_per_cycle"] = tensor_core_width(s);
  // Energy beside speed, when the run had a power model (docs/power.md): the run's
  // joules, its average watts and the SM clock it settled at (cycle-weighted).
  const auto& t = s.at("total");
  if (t.contains("energy") && t.contains("power")) {
    k["joules"] = t["energy"].value("joules", 0.0);
    k["watts"] = t["power"].value("watts", 0.0);
    k["clock_mhz"] = t["power"].value("clock_mhz", 0.0);
  }
  return k;
}

}  // namespace stcsim::sweep
