#include "sim/driver/ops_csv.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace stcsim {

namespace {

using Row = std::vector<std::pair<std::string, std::string>>;

std::string cell_text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void flatten(const nlohmann::json& v, const std::string& prefix, Row& row) {
  if (v.is_object() && !v.empty()) {
    for (const auto& [k, sub] : v.items()) flatten(sub, prefix.empty() ? k : prefix + "." + k, row);
    return;
  }
  row.emplace_back(prefix, cell_text(v));
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string ops_csv(const nlohmann::json& stats) {
  std::vector<Row> rows;
  std::vector<std::string> columns;
  std::map<std::string, bool> seen;
  for (const auto& op : stats.at("ops")) {
    Row row;
    flatten(op, "", row);
    for (const auto& [name, value] : row)
      if (seen.emplace(name, true).second) columns.push_back(name);
    rows.push_back(std::move(row));
  }
  // What the op is first, then its stats as stats.json orders them.
  const std::vector<std::string> lead{"name", "variant", "pattern", "m",
                                      "n",    "k",       "batch",   "dtype"};
  std::stable_sort(columns.begin(), columns.end(), [&](const std::string& a, const std::string& b) {
    return std::find(lead.begin(), lead.end(), a) < std::find(lead.begin(), lead.end(), b);
  });
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c ? "," : "") + csv_field(columns[c]);
  out += "\n";
  for (const auto& row : rows) {
    std::map<std::string, const std::string*> by_name;
    for (const auto& [name, value] : row) by_name[name] = &value;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = by_name.find(columns[c]);
      out += (c ? "," : "") + (it == by_name.end() ? std::string() : csv_field(*it->second));
    }
    out += "\n";
  }
  return out;
}

}  // namespace stcsim
