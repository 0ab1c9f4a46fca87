#include "validation/compare/ubench_compare.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "sim/core/input_error.h"
#include "validation/compare/measurements.h"

namespace stcsim::validation {

using nlohmann::json;

namespace {

// Throughput and bandwidth: the best configuration is the highest; latency: the lowest.
bool better(const std::string& metric, double a, double b) {
  return metric == "latency" ? a < b : a > b;
}

// The median of a figure's probed SM clocks (params.sm_clock_mhz, one a sample); 0 where
// it has none or they are not numbers.
double probed_clock(const UbenchFigure& f) {
  const auto it = f.params.find("sm_clock_mhz");
  if (it == f.params.end() || !it->is_array() || it->empty()) return 0;
  std::vector<double> v;
  for (const json& x : *it)
    if (x.is_number() && x.get<double>() > 0) v.push_back(x.get<double>());
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::vector<UbenchFile> load_ubench(const std::string& file_or_dir) {
  std::vector<UbenchFile> out;
  for (const auto& [path, j] : read_json_files(file_or_dir)) {
    if (!is_ubench_file(j)) continue;
    UbenchFile f;
    f.path = path;
    try {
      // A simulated file (stcsim ubench) is no measurement either.
      f.synthetic = j.value("synthetic", false) || j.value("simulated", false);
      f.device_name = j.at("device").at("name").get<std::string>();
      for (const json& r : j.at("results"))
        f.results.push_back({path, r.at("name").get<std::string>(),
                             r.at("metric").get<std::string>(), r.at("unit").get<std::string>(),
                             r.value("what", ""), r.at("value").get<double>(),
                             r.value("params", json::object())});
    } catch (const json::exception& e) {
      throw InputError(path + ": malformed stcsim-ubench/1 file: " + e.what());
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<UbenchRow> ubench_rows(const std::vector<UbenchFile>& files) {
  std::vector<UbenchRow> rows;
  std::map<std::string, std::size_t> index;  // "name|metric" -> row
  for (const UbenchFile& f : files)
    for (const UbenchFigure& fig : f.results) {
      const std::string key = fig.name + "|" + fig.metric;
      auto it = index.find(key);
      if (it == index.end()) {
        it = index.emplace(key, rows.size()).first;
        UbenchRow row;  // members by name: a partial aggregate warns (-Werror in CI)
        row.name = fig.name;
        row.metric = fig.metric;
        row.unit = fig.unit;
        row.measured = fig.value;
        row.measured_clock_mhz = probed_clock(fig);
        rows.push_back(row);
      }
      UbenchRow& r = rows[it->second];
      ++r.configurations;
      if (better(fig.metric, fig.value, r.measured)) {
        r.measured = fig.value;
        r.measured_clock_mhz = probed_clock(fig);
      }
    }
  return rows;
}

SimJob ubench_job(const std::vector<UbenchRow>& rows, const std::string& arch,
                  const std::vector<std::string>& overrides, const std::string& out_dir) {
  SimJob job;
  std::string names;
  for (const UbenchRow& r : rows)
    if (("," + names + ",").find("," + r.name + ",") == std::string::npos)
      names += (names.empty() ? "" : ",") + r.name;
  job.args = {"ubench", "--arch", arch, "--figures", names};
  for (const auto& o : overrides) job.args.insert(job.args.end(), {"-p", o});
  job.out_dir = out_dir;
  job.ubench = true;
  return job;
}

void set_predictions(std::vector<UbenchRow>& rows, const json& simulated) {
  for (UbenchRow& r : rows) {
    r.simulated = false;
    int found = 0;
    try {
      for (const json& s : simulated.at("results")) {
        if (s.at("name") != r.name || s.at("metric") != r.metric) continue;
        const double v = s.at("value").get<double>();
        if (found++ == 0 || better(r.metric, v, r.predicted)) r.predicted = v;
        r.workload = "stcsim ubench: " + s.value("what", std::string());
        if (s.value("unit", r.unit) != r.unit)
          throw InputError("simulated " + r.name + " " + r.metric + " is in " +
                           s.value("unit", std::string()) + ", measured in " + r.unit);
      }
      if (found) {
        r.simulated = true;
        continue;
      }
      r.why_not = "stcsim ubench has no benchmark yielding it";
      for (const json& e : simulated.at("errors")) {  // what the preset cannot run
        const json figures = e.value("figures", json::array());
        if (std::find(figures.begin(), figures.end(), r.name) != figures.end())
          r.why_not = "not simulated on this preset: " + e.at("why").get<std::string>();
      }
    } catch (const json::exception& e) {
      throw InputError(std::string("the simulated stcsim-ubench/1 document is malformed: ") +
                       e.what());
    }
  }
}

std::string format_ubench(const std::vector<UbenchRow>& rows) {
  std::string o = "\nMicrobenchmarks (stcsim-ubench/1), measured and simulated (stcsim ubench):\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-34s %-10s %-12s %12s %12s %8s  %s\n", "benchmark", "metric",
                "unit", "measured", "predicted", "error", "simulated program");
  o += line;
  int without = 0;
  for (const UbenchRow& r : rows) {
    if (!r.simulated) {
      ++without;
      continue;
    }
    std::snprintf(line, sizeof line, "%-34s %-10s %-12s %12.1f %12.1f %7.1f%%  %s", r.name.c_str(),
                  r.metric.c_str(), r.unit.c_str(), r.measured, r.predicted, r.error_percent(),
                  r.workload.c_str());
    o += line;
    if (r.measured_clock_mhz > 0) {
      std::snprintf(line, sizeof line, " [GPU's SM clock %.0f MHz, probed]", r.measured_clock_mhz);
      o += line;
    }
    o += "\n";
  }
  if (without) {
    o += "Not simulated (" + std::to_string(without) + " figures):\n";
    for (const UbenchRow& r : rows)
      if (!r.simulated) {
        std::snprintf(line, sizeof line, "  %-34s %-10s %12.1f %-12s %s\n", r.name.c_str(),
                      r.metric.c_str(), r.measured, r.unit.c_str(), r.why_not.c_str());
        o += line;
      }
  }
  return o;
}

json ubench_json(const std::vector<UbenchRow>& rows) {
  json out = json::array();
  for (const UbenchRow& r : rows) {
    json j{{"name", r.name},
           {"metric", r.metric},
           {"unit", r.unit},
           {"measured", r.measured},
           {"configurations", r.configurations},
           {"simulated", r.simulated}};
    if (r.measured_clock_mhz > 0) j["measured_sm_clock_mhz"] = r.measured_clock_mhz;
    if (r.simulated) {
      j["counterpart"] = r.workload;
      j["predicted"] = r.predicted;
      j["error_percent"] = r.error_percent();
    } else {
      j["why_not"] = r.why_not;
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace stcsim::validation
