// The tidy table of a sweep: one row per point and workload, with every varied
// parameter and the key stats, as results.csv (for spreadsheets and pandas) and
// results.json (the same rows as records, numbers as numbers). Built from the plan and
// the point files alone, so shards, merges and resumed runs all produce it the same way.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stcsim::sweep {

// Stat columns after the parameters, "workload" and "status".
extern const std::vector<std::string> kStatColumns;

// The table as JSON: {sweep, parameters, workloads, reference_point, points_total,
// points_present, points_failed, columns, rows: [{column: value}]}.
nlohmann::json build_table(const nlohmann::json& plan,
                           const std::map<std::int64_t, std::string>& point_files);
std::string table_csv(const nlohmann::json& table);

// Build and write results.csv and results.json into `root`, atomically each.
nlohmann::json write_tables(const std::string& root, const nlohmann::json& plan,
                            const std::map<std::int64_t, std::string>& point_files);

}  // namespace stcsim::sweep
