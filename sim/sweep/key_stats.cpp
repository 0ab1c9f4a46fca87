#include "sim/sweep/key_stats.h"

#include <algorithm>
#include <optional>

#include "models/common/dtype.h"
#include "models/numerics/accumulation_model.h"
#include "sim/sweep/tensor_core_area.h"

namespace stcsim::sweep {

namespace {

const nlohmann::json* find_param(const nlohmann::json& hw, const std::string& section,
                                 const std::string& key) {
  if (!hw.contains(section) || !hw[section].contains("params") ||
      !hw[section]["params"].contains(key))
    return nullptr;
  return &hw[section]["params"][key]["value"];
}

// Products per cycle of one sub-core pipe for `dtype`: the dense mma's FMAs / its
// initiation interval, or a wgmma slice's m16 x n8 step / its cycles where that is faster
// (Hopper's fp8 mma.sync is emulated at half its wgmma rate); 0 when the preset has no
// interval for it.
double pipe_products_per_cycle(const nlohmann::json& hw, const std::string& dtype) {
  const auto* ii = find_param(hw, "tensor_core", dtype + "_ii_cycles");
  const auto* wg = find_param(hw, "tensor_core", "wgmma_" + dtype + "_cycles_per_n8");
  if (!ii || !ii->is_number() || ii->get<double>() <= 0) return 0;
  const double fma = double(dense_mma_shape(parse_dtype(dtype)).fma());
  double per_pipe = fma / ii->get<double>();  // an m16n8 step per interval
  if (wg && wg->is_number() && wg->get<double>() > 0)
    per_pipe = std::max(per_pipe, fma / wg->get<double>());
  return per_pipe;
}

double param_number(const nlohmann::json& hw, const std::string& section, const std::string& key) {
  const auto* v = find_param(hw, section, key);
  return v && v->is_number() ? v->get<double>() : 0.0;
}

// Multipliers of the tensor cores over the GPU, per cycle, for the run's dtype: SMs x
// sub-core pipes x a pipe's products per cycle. A sparse run uses the same multipliers (it
// skips work, it does not add hardware).
double tensor_core_width(const nlohmann::json& s) {
  const auto& hw = s.at("config").at("hardware");
  const auto& ops = s.at("ops");
  const std::string dtype = ops.empty() ? "fp16" : ops[0].value("dtype", "fp16");
  const double per_pipe = pipe_products_per_cycle(hw, dtype);
  const double pipes = param_number(hw, "gpu", "num_sms") * param_number(hw, "sm", "sub_cores");
  if (per_pipe > 0 && pipes > 0) return pipes * per_pipe;
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

// The tensor cores' area in Yosys cells (tensor_core_area.h): the multipliers are the
// fp16 ones (bf16 and int8 share them in the RTL's stc_mul16), in dot units of the
// numerics preset's block; 2:4 selection and the metadata path when sparse_patterns holds
// 2:4. Absent (nullopt) when the preset gives no fp16 rate.
std::optional<TensorCoreArea> tensor_core_cells(const nlohmann::json& s) {
  const auto& hw = s.at("config").at("hardware");
  TensorCoreDesign d;
  d.sms = param_number(hw, "gpu", "num_sms");
  d.sub_cores = param_number(hw, "sm", "sub_cores");
  d.lanes = pipe_products_per_cycle(hw, "fp16");
  if (!(d.lanes > 0 && d.sms > 0 && d.sub_cores > 0)) return std::nullopt;
  if (const auto* n = find_param(hw, "tensor_core", "numerics"); n && n->is_string()) {
    try {
      d.block = numerics::accumulation_preset(n->get<std::string>(), numerics::FloatFormat::FP16)
                    .block_size;
    } catch (const std::exception&) {
      // a numerics name the run accepted but the presets do not list: the default block
    }
  }
  if (const auto* p = find_param(hw, "tensor_core", "sparse_patterns"); p && p->is_string())
    d.sparse_24 = p->get<std::string>().find("2:4") != std::string::npos;
  d.b_bytes_per_cycle = param_number(hw, "tensor_core", "operand_b_bytes_per_cycle");
  d.metadata_bits_per_cycle =
      d.sparse_24 ? param_number(hw, "tensor_core", "metadata_bits_per_cycle") : 0.0;
  return tensor_core_area(d, yosys_area_coefficients());
}

}  // namespace

nlohmann::json key_stats(const nlohmann::json& s) {
  nlohmann::json k = s.at("total");
  k.erase("wall_seconds");
  k.erase("name");
  k["ops"] = s.at("ops").size();
  k["arch"] = s.value("arch", "");
  k["tc_macs_per_cycle"] = tensor_core_width(s);
  if (const auto area = tensor_core_cells(s)) k["tc_area_cells"] = area->total();
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
