#include "sim/sweep/point_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;

bool PointRecord::ok() const {
  for (const auto& w : workloads)
    if (!w.ok) return false;
  return !workloads.empty();
}

nlohmann::json PointRecord::to_json() const {
  nlohmann::json j;
  j["schema_version"] = 1;
  j["id"] = id;
  j["status"] = ok() ? "ok" : "failed";
  j["values"] = nlohmann::json::object();
  for (const auto& [k, v] : values) j["values"][k] = v;
  j["workloads"] = nlohmann::json::array();
  for (const auto& w : workloads) {
    nlohmann::json wj{{"name", w.name}, {"status", w.ok ? "ok" : "failed"}, {"command", w.command}};
    if (w.ok)
      wj["stats"] = w.stats;
    else
      wj["error"] = w.error;
    // Host times sit apart from the results: they differ between runs of the same point.
    wj["host"] = {{"sim_wall_seconds", w.sim_wall_seconds},
                  {"proc_wall_seconds", w.proc_wall_seconds}};
    j["workloads"].push_back(wj);
  }
  return j;
}

PointRecord PointRecord::from_json(const nlohmann::json& j) {
  PointRecord r;
  r.id = j.at("id").get<std::int64_t>();
  for (const auto& [k, v] : j.at("values").items()) r.values.emplace_back(k, v.get<std::string>());
  for (const auto& wj : j.at("workloads")) {
    WorkloadResult w;
    w.name = wj.at("name").get<std::string>();
    w.ok = wj.at("status") == "ok";
    w.command = wj.value("command", "");
    if (w.ok)
      w.stats = wj.at("stats");
    else
      w.error = wj.value("error", "");
    if (wj.contains("host")) {
      w.sim_wall_seconds = wj["host"].value("sim_wall_seconds", 0.0);
      w.proc_wall_seconds = wj["host"].value("proc_wall_seconds", 0.0);
    }
    r.workloads.push_back(std::move(w));
  }
  return r;
}

std::string point_file_name(std::int64_t id) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "p%08lld.json", static_cast<long long>(id));
  return buf;
}

std::optional<std::int64_t> point_id_of(const std::string& name) {
  if (name.size() < 7 || name[0] != 'p' || name.substr(name.size() - 5) != ".json")
    return std::nullopt;
  const std::string digits = name.substr(1, name.size() - 6);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(digits);
}

void write_atomically(const std::string& path, const std::string& text) {
  stcsim::write_atomically(path, text);  // one home: sim/core/atomic_write.h
}

void write_point(const std::string& points_dir, const PointRecord& r) {
  write_atomically((fs::path(points_dir) / point_file_name(r.id)).string(),
                   r.to_json().dump(1) + "\n");
}

PointRecord read_point(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read point result");
  try {
    return PointRecord::from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw InputError(path + ": not a point result: " + e.what());
  }
}

}  // namespace stcsim::sweep
