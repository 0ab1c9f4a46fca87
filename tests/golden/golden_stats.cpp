// The golden regression's view of a stats.json: every number and string as one
// `path = value` line, so goldens diff line by line and a drift names its counter.
//
//   golden_stats flatten STATS_JSON          print the flattened stats (host time left out)
//   golden_stats diff EXPECTED ACTUAL        compare two flattened files; exit 1 on any
//                                            difference, listing changed, added and removed
//                                            lines (with the relative change of numbers)
//
// Values are printed as nlohmann::json dumps them (shortest round-trip form), so a
// difference in the last bit of a double shows.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

// Host-dependent entries: never part of a golden.
bool excluded(const std::string& path) { return path == "total.wall_seconds"; }

void flatten(const nlohmann::json& j, const std::string& path,
             std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
  } else if (j.is_array()) {
    if (j.empty()) out[path] = "[]";
    for (std::size_t i = 0; i < j.size(); ++i)
      flatten(j[i], path + "[" + std::to_string(i) + "]", out);
  } else if (!excluded(path)) {
    out[path] = j.dump();
  }
}

// Lines in file order, keyed by path.
std::map<std::string, std::string> read_flat(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot read");
  std::map<std::string, std::string> m;
  std::string line;
  int no = 0;
  while (std::getline(in, line)) {
    ++no;
    if (line.empty()) continue;
    const auto eq = line.find(" = ");
    if (eq == std::string::npos)
      throw std::runtime_error(file + ":" + std::to_string(no) +
                               ": expected 'path = value', got '" + line + "'");
    m[line.substr(0, eq)] = line.substr(eq + 3);
  }
  return m;
}

std::string relative_change(const std::string& a, const std::string& b) {
  char* ea = nullptr;
  char* eb = nullptr;
  const double x = std::strtod(a.c_str(), &ea), y = std::strtod(b.c_str(), &eb);
  if (*ea != '\0' || *eb != '\0' || x == 0) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "  (%+.4g%%)", 100.0 * (y - x) / std::fabs(x));
  return buf;
}

int diff(const std::string& expected_file, const std::string& actual_file) {
  const auto e = read_flat(expected_file), a = read_flat(actual_file);
  int changed = 0, added = 0, removed = 0;
  for (const auto& [path, v] : e) {
    const auto it = a.find(path);
    if (it == a.end()) {
      std::cout << "- " << path << " = " << v << "\n";
      ++removed;
    } else if (it->second != v) {
      std::cout << "~ " << path << ": " << v << " -> " << it->second
                << relative_change(v, it->second) << "\n";
      ++changed;
    }
  }
  for (const auto& [path, v] : a)
    if (!e.count(path)) {
      std::cout << "+ " << path << " = " << v << "\n";
      ++added;
    }
  if (changed + added + removed == 0) return 0;
  std::cout << changed << " changed, " << added << " added, " << removed << " removed ("
            << expected_file << " -> " << actual_file << ")\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "flatten" && argc == 3) {
      std::ifstream in(argv[2]);
      if (!in) throw std::runtime_error(std::string(argv[2]) + ": cannot read");
      std::map<std::string, std::string> flat;
      flatten(nlohmann::json::parse(in), "", flat);
      for (const auto& [path, v] : flat) std::cout << path << " = " << v << "\n";
      return 0;
    }
    if (mode == "diff" && argc == 4) return diff(argv[2], argv[3]);
    std::cerr << "usage: golden_stats flatten STATS_JSON | golden_stats diff EXPECTED ACTUAL\n";
    return 2;
  } catch (const std::exception& ex) {
    std::cerr << "golden_stats: " << ex.what() << "\n";
    return 2;
  }
}
