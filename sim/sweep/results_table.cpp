#include "sim/sweep/results_table.h"

#include <sstream>

#include "sim/sweep/point_record.h"
#include "sim/sweep/value_range.h"

namespace stcsim::sweep {

const std::vector<std::string> kStatColumns = {"cycles",
                                               "seconds",
                                               "tflops",
                                               "peak_tflops",
                                               "fraction_of_peak",
                                               "speedup_vs_dense",
                                               "speedup_vs_ref",
                                               "limiter",
                                               "util_tensor",
                                               "util_smem",
                                               "util_l2",
                                               "util_dram",
                                               "util_l2_link",
                                               "l2_read_hit_rate",
                                               "dram_gbps",
                                               "tc_macs_per_cycle",
                                               "tc_area_cells",
                                               "joules",
                                               "watts",
                                               "clock_mhz",
                                               "error"};

namespace {

// A parameter value as JSON: a number when the text is one, else the text.
nlohmann::json typed(const std::string& s) {
  if (s.empty()) return s;
  std::size_t used = 0;
  try {
    if (s.find_first_of(".eE") == std::string::npos) {
      const long long v = std::stoll(s, &used);
      if (used == s.size()) return v;
    }
    const double d = std::stod(s, &used);
    if (used == s.size()) return d;
  } catch (...) {
  }
  return s;
}

std::string csv_field(const nlohmann::json& v) {
  std::string s;
  if (v.is_null()) return "";
  if (v.is_string())
    s = v.get<std::string>();
  else if (v.is_number_integer())
    s = std::to_string(v.get<long long>());
  else if (v.is_number())
    s = format_number(v.get<double>());
  else
    s = v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void fill_stats(nlohmann::json& row, const nlohmann::json& st) {
  for (const char* k : {"cycles", "seconds", "tflops", "peak_tflops", "fraction_of_peak",
                        "speedup_vs_dense", "limiter", "l2_read_hit_rate", "dram_gbps",
                        "tc_macs_per_cycle", "tc_area_cells", "joules", "watts", "clock_mhz"})
    if (st.contains(k)) row[k] = st[k];
  if (st.contains("utilization"))
    for (const auto& [k, v] : st["utilization"].items()) row["util_" + k] = v;
}

}  // namespace

nlohmann::json build_table(const nlohmann::json& plan,
                           const std::map<std::int64_t, std::string>& files) {
  std::vector<std::string> params, workloads;
  for (const auto& a : plan.at("axes"))
    for (const auto& k : a.at("keys")) params.push_back(k.get<std::string>());
  for (const auto& w : plan.at("workloads")) workloads.push_back(w.at("name").get<std::string>());
  const std::int64_t ref = plan.at("reference_point").get<std::int64_t>();

  std::map<std::int64_t, PointRecord> points;
  for (const auto& [id, path] : files) points.emplace(id, read_point(path));
  std::map<std::string, double> ref_seconds;  // workload -> seconds at the reference point
  if (auto it = points.find(ref); it != points.end())
    for (const auto& w : it->second.workloads)
      if (w.ok) ref_seconds[w.name] = w.stats.value("seconds", 0.0);

  nlohmann::json t;
  t["schema_version"] = 1;
  t["sweep"] = plan.at("name");
  t["parameters"] = params;
  t["workloads"] = workloads;
  t["reference_point"] = ref;
  t["points_total"] = plan.at("points");
  t["points_present"] = points.size();
  std::vector<std::string> cols{"point"};
  cols.insert(cols.end(), params.begin(), params.end());
  cols.push_back("workload");
  cols.push_back("status");
  cols.insert(cols.end(), kStatColumns.begin(), kStatColumns.end());
  t["columns"] = cols;
  t["rows"] = nlohmann::json::array();
  std::int64_t failed = 0;
  for (const auto& [id, p] : points) {
    failed += p.ok() ? 0 : 1;
    for (const auto& w : p.workloads) {
      nlohmann::json row = nlohmann::json::object();
      for (const auto& c : cols) row[c] = nullptr;
      row["point"] = id;
      for (const auto& [k, v] : p.values) row[k] = typed(v);
      row["workload"] = w.name;
      row["status"] = w.ok ? "ok" : "failed";
      if (w.ok) {
        fill_stats(row, w.stats);
        auto r = ref_seconds.find(w.name);
        const double s = w.stats.value("seconds", 0.0);
        if (r != ref_seconds.end() && s > 0) row["speedup_vs_ref"] = r->second / s;
      } else {
        row["error"] = w.error;
      }
      t["rows"].push_back(row);
    }
  }
  t["points_failed"] = failed;
  return t;
}

std::string table_csv(const nlohmann::json& t) {
  std::ostringstream os;
  const auto& cols = t.at("columns");
  for (std::size_t i = 0; i < cols.size(); ++i) os << (i ? "," : "") << csv_field(cols[i]);
  os << "\n";
  for (const auto& row : t.at("rows")) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      os << (i ? "," : "") << csv_field(row[cols[i].get<std::string>()]);
    os << "\n";
  }
  return os.str();
}

nlohmann::json write_tables(const std::string& root, const nlohmann::json& plan,
                            const std::map<std::int64_t, std::string>& files) {
  nlohmann::json t = build_table(plan, files);
  write_atomically(root + "/results.json", t.dump(1) + "\n");
  write_atomically(root + "/results.csv", table_csv(t));
  return t;
}

}  // namespace stcsim::sweep
