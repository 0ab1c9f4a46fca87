// The human-readable report printed by `stcsim run`.
#pragma once
#include <string>

#include "sim/driver/run_driver.h"

namespace stcsim {

std::string format_report(const RunRequest& req, const RunResult& res);

// Side by side totals of pruning variants (GemmOp::variant).
std::string format_variants(const std::vector<std::string>& variants, const RunResult& res);

// The layers pruning skipped, left partly unpruned or floored, with why, and a line when
// the block maps come from synthetic weights; "" when there is nothing to say.
std::string format_pruning_notes(const RunResult& res);

}  // namespace stcsim
