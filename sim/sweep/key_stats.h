// What a sweep keeps of one `stcsim run`: the key stats of its stats.json.
#pragma once
#include <nlohmann/json.hpp>

namespace stcsim::sweep {

// Key stats from a `stcsim run` stats.json: the run's `total` less host times, the op
// count, and the tensor-core width (multipliers over the GPU, per cycle, for the
// workload's dtype; the same for its sparse runs), the tensor cores' area in Yosys cells
// (`tc_area_cells`, tensor_core_area.h), the cost axis of the Pareto plot; and, when the
// run had a power model, its joules, average watts and settled SM clock (`joules`,
// `watts`, `clock_mhz`), for the plot of speed against energy.
nlohmann::json key_stats(const nlohmann::json& stats_json);

}  // namespace stcsim::sweep
