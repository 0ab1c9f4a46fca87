// The human-readable report printed by `stcsim run`.
#pragma once
#include <string>

#include "sim/driver/run_driver.h"

namespace stcsim {

std::string format_report(const RunRequest& req, const RunResult& res);

}  // namespace stcsim
