// stats.json: per-op and total results with units, plus the fully resolved config.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sim/driver/run_driver.h"

namespace stcsim {

nlohmann::json op_to_json(const OpResult& r, bool with_op_details);
// (In `total`, speedup_vs_dense and reduction_factors cover the sparse ops and their dense
// twins only.)
nlohmann::json stats_json(const RunRequest& req, const RunResult& res);

// Write `text` to DIR/name atomically (temporary file, then rename), creating DIR.
// An existing file is replaced only once the new one is complete.
void write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& text);

}  // namespace stcsim
