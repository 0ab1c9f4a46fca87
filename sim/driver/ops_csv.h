// ops.csv beside stats.json: one row per op, one column per stat, for spreadsheets and
// pandas (issue 17, item 2). Written from stats.json's own `ops`, so the two cannot differ.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace stcsim {

// The CSV of `stats["ops"]`: nested objects flattened to dotted names
// ("utilization.tensor"); name, variant, pattern, m, n, k, batch and dtype first, then the
// columns in the order they first appear over the ops; a cell
// empty where an op has no such stat; numbers as stats.json writes them, arrays as JSON
// text, fields with a comma, quote or line break quoted (RFC 4180).
std::string ops_csv(const nlohmann::json& stats);

}  // namespace stcsim
