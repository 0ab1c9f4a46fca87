// The result of one design point, as one file DIR/points/pNNNNNNNN.json written
// atomically (temp file, then rename): a point is complete or absent, never partial,
// whenever the sweep is killed. Resuming skips points whose file exists.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stcsim::sweep {

struct WorkloadResult {
  std::string name;
  bool ok = false;
  std::string error;             // the child's message when !ok
  std::string command;           // the `stcsim run` line that reproduces this result
  nlohmann::json stats;          // key stats of the run's total (deterministic: no host times)
  double sim_wall_seconds = 0;   // host time inside the simulation (stats.json)
  double proc_wall_seconds = 0;  // host time of the whole child process
};

struct PointRecord {
  std::int64_t id = 0;
  std::vector<std::pair<std::string, std::string>> values;
  std::vector<WorkloadResult> workloads;
  bool ok() const;

  nlohmann::json to_json() const;
  static PointRecord from_json(const nlohmann::json& j);  // throws std::exception if malformed
};

std::string point_file_name(std::int64_t id);  // "p00000042.json"
// The id in a point file's name, or nullopt for any other file.
std::optional<std::int64_t> point_id_of(const std::string& file_name);

void write_point(const std::string& points_dir, const PointRecord& r);
PointRecord read_point(const std::string& path);  // throws InputError naming the file

// Write `text` to `path` via a temp file in the same folder and rename(2), which is atomic.
void write_atomically(const std::string& path, const std::string& text);

}  // namespace stcsim::sweep
