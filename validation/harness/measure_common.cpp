#include "validation/harness/measure_common.h"

#include <cstdio>

namespace stcsim::validation {

std::string sparsity_family(const std::string& base, double sparsity) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", sparsity * 100);
  return base + buf;
}

double family_sparsity(const std::string& family) { return std::stod(family.substr(3)) / 100; }

nlohmann::json timed(const std::function<void(cudaStream_t)>& launch, const MeasureSettings& s,
                     MeasureContext& ctx) {
  const KernelTiming t = time_kernel(launch, ctx.stream, s.timing, ctx.flush, ctx.nvml);
  nlohmann::json j{
      {"time_us", to_json(t.cold)}, {"timing", to_json(t)}, {"sm_clock_mhz", t.sm_clock_mhz}};
  if (!t.sm_clock_mhz.is_null()) j["sm_clock_mhz_median"] = t.sm_clock_mhz["median"];
  return j;
}

nlohmann::json entry_head(const GemmSpec& g, const char* sparsity, const std::string& kernel) {
  return {{"name", g.name},       {"m", g.m},        {"n", g.n}, {"k", g.k}, {"dtype", "fp16"},
          {"sparsity", sparsity}, {"kernel", kernel}};
}

}  // namespace stcsim::validation
