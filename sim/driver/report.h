// The human-readable report printed by `stcsim run`.
#pragma once
#include <string>

#include "sim/driver/run_driver.h"

namespace stcsim {

std::string format_report(const RunRequest& req, const RunResult& res);

// Side by side totals of pruning variants whose ops are named "<variant>/<layer>".
std::string format_variants(const std::vector<std::string>& variants, const RunResult& res);

}  // namespace stcsim
