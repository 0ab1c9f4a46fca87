#include "sim/driver/ubench_run.h"

#include <algorithm>
#include <systemc>

#include "models/gpu/gpu.h"
#include "sim/core/input_error.h"
#include "sim/core/nearest.h"
#include "sim/driver/sanitizer_main_stack.h"

namespace stcsim {

std::vector<std::string> ubench_groups_yielding(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const IMicrobenchmark* b : UbenchRegistry::all())
    for (const std::string& f : b->figures())
      if (std::find(names.begin(), names.end(), f.substr(0, f.find('|'))) != names.end()) {
        out.push_back(b->name());
        break;
      }
  return out;
}

nlohmann::json run_ubench(const Config& config, const std::vector<std::string>* groups,
                          const std::string& command) {
  std::vector<const IMicrobenchmark*> chosen;
  if (!groups) chosen = UbenchRegistry::all();
  for (const std::string& g : groups ? *groups : std::vector<std::string>{}) {
    const IMicrobenchmark* b = UbenchRegistry::find(g);
    if (!b) {
      std::vector<std::string> names;
      for (const IMicrobenchmark* x : UbenchRegistry::all()) names.push_back(x->name());
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw InputError("--only: unknown microbenchmark '" + g +
                       "' (nearest: " + nearest_name(g, names) + "); known: " + list);
    }
    chosen.push_back(b);
  }
  // The light kernels' clock (gpu.max_clock_mhz): the chases, copies and reads leave the
  // tensor cores idle; the mainloop anatomy times itself at the GEMM clock.
  Gpu gpu("gpu", config.sections, config.name, /*light_kernels=*/true);
  if (!chosen.empty()) {
    gpu.set_microbenchmarks(chosen);
    sc_core::sc_start();
    restore_main_stack_for_sanitizer();
  }
  nlohmann::json doc{{"schema", "stcsim-ubench/1"},
                     {"synthetic", false},
                     {"simulated", true},
                     {"command", command},
                     {"device",
                      {{"name", config.name + " (simulated)"},
                       {"preset", config.name},
                       {"sm_count", gpu.spec().num_sms},
                       {"clock_mhz", gpu.run_clock_mhz()}}},
                     {"results", nlohmann::json::array()},
                     {"errors", nlohmann::json::array()}};
  for (const UbenchResult& r : gpu.ubench_results()) doc["results"].push_back(r.to_json());
  for (const UbenchSkip& s : gpu.ubench_skipped())
    doc["errors"].push_back(
        {{"name", s.name}, {"why", "unsupported: " + s.why}, {"figures", s.figures}});
  return doc;
}

}  // namespace stcsim
