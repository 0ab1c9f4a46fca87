#include "validation/compare/measurements.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "validation/compare/measurements_csv.h"

namespace stcsim::validation {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json& need(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw InputError(where + ": missing field '" + key + "'");
  return j.at(key);
}

template <typename T>
T get(const json& j, const char* key, const std::string& where) {
  try {
    return need(j, key, where).get<T>();
  } catch (const json::exception& e) {
    throw InputError(where + ": field '" + key + "': " + e.what());
  }
}

// An optional field: its default when absent, a clear error naming the field when present
// with the wrong type (nlohmann's value() would throw a type_error, not an InputError).
template <typename T>
T optional(const json& j, const char* key, T fallback, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) return fallback;
  try {
    return j.at(key).get<T>();
  } catch (const json::exception& e) {
    throw InputError(where + ": field '" + key + "': " + e.what());
  }
}

std::optional<double> optional_number(const json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j.at(key).is_number()) return j.at(key).get<double>();
  return std::nullopt;
}

bool is_csv(const std::string& path) { return fs::path(path).extension() == ".csv"; }

MeasuredGemm parse_gemm(const json& g, const std::string& where) {
  MeasuredGemm r;
  r.name = get<std::string>(g, "name", where);
  r.m = get<long long>(g, "m", where);
  r.n = get<long long>(g, "n", where);
  r.k = get<long long>(g, "k", where);
  r.dtype = optional<std::string>(g, "dtype", "fp16", where);
  r.sparsity = optional<std::string>(g, "sparsity", "dense", where);
  r.kernel = get<std::string>(g, "kernel", where);
  r.time_us = get<double>(need(g, "time_us", where), "median", where + ".time_us");
  if (!(r.time_us > 0)) throw InputError(where + ": time_us.median must be positive");
  r.runs = optional<int>(need(g, "time_us", where), "runs", 0, where + ".time_us");
  r.sm_clock_mhz = optional_number(g, "sm_clock_mhz_median");
  if (g.contains("mapping") && g.at("mapping").is_object()) {
    const json& mp = g.at("mapping");
    const std::string w = where + ".mapping";
    MeasuredMapping m;
    m.cta_m = get<int>(mp, "cta_m", w);
    m.cta_n = get<int>(mp, "cta_n", w);
    m.cta_k = get<int>(mp, "cta_k", w);
    m.warp_m = get<int>(mp, "warp_m", w);
    m.warp_n = get<int>(mp, "warp_n", w);
    m.stages = get<int>(mp, "stages", w);
    m.swizzle = optional<int>(mp, "swizzle", 1, w);
    m.split_k = optional<int>(mp, "split_k", 1, w);
    m.smem_layout = optional<std::string>(mp, "smem_layout", "swizzled", w);
    r.mapping = m;
  }
  if (g.contains("bsr") && g.at("bsr").is_object()) {
    const json& b = g.at("bsr");
    r.block_rows = optional<int>(b, "block_rows", 0, where + ".bsr");
    r.block_cols = optional<int>(b, "block_cols", 0, where + ".bsr");
    r.pruned = b.contains("sparsity") ? optional<double>(b, "sparsity", 0.0, where + ".bsr")
                                      : 1 - optional<double>(b, "density", 1.0, where + ".bsr");
  }
  if (g.contains("csr") && g.at("csr").is_object()) {
    r.pruned = optional<double>(g.at("csr"), "sparsity", 0.0, where + ".csr");
    r.csr_gather_loop =
        optional<std::string>(g.at("csr"), "gather_loop", r.csr_gather_loop, where + ".csr");
    if (r.csr_gather_loop != "staged" && r.csr_gather_loop != "dependent")
      throw InputError(where + ".csr.gather_loop: expected \"staged\" or \"dependent\", got \"" +
                       r.csr_gather_loop + "\"");
  }
  if (g.contains("check") && g.at("check").is_object()) {
    const json& c = g.at("check");
    r.check_passed = optional<bool>(c, "passed", true, where + ".check");
    const std::string w = where + ".check.numerics.presets";
    if (c.contains("numerics") && c.at("numerics").is_object() &&
        c.at("numerics").contains("presets"))
      for (const auto& [name, p] : c.at("numerics").at("presets").items())
        r.numerics.push_back(
            PresetAgreementRecord{name, optional<int>(p, "compared", 0, w + "." + name),
                                  optional<int>(p, "exact", 0, w + "." + name),
                                  optional<double>(p, "max_ulp", 0.0, w + "." + name),
                                  optional<double>(p, "mean_ulp", 0.0, w + "." + name)});
  }
  return r;
}

}  // namespace

std::string MeasuredMapping::str() const {
  std::ostringstream os;
  os << cta_m << "x" << cta_n << "x" << cta_k << "/" << warp_m << "x" << warp_n << " s" << stages
     << " sw" << swizzle;
  return os.str();
}

std::string MeasuredGemm::shape() const {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

MeasurementFile parse_measurements(const json& j, const std::string& path) {
  const std::string schema = get<std::string>(j, "schema", path);
  if (schema != "stcsim-measurements/1")
    throw InputError(path + ": schema '" + schema + "', expected 'stcsim-measurements/1'");
  MeasurementFile f;
  f.path = path;
  f.synthetic = optional<bool>(j, "synthetic", false, path);
  f.command = optional<std::string>(j, "command", "", path);
  const json& dev = need(j, "device", path);
  f.device_name = get<std::string>(dev, "name", path + ".device");
  f.preset = optional<std::string>(dev, "preset", "", path + ".device");
  if (dev.contains("sm_clock_mhz") && dev.at("sm_clock_mhz").is_object())
    f.sm_clock_mhz = optional_number(dev.at("sm_clock_mhz"), "median");
  const json& gemms = need(j, "gemms", path);
  if (!gemms.is_array()) throw InputError(path + ": 'gemms' is not an array");
  for (std::size_t i = 0; i < gemms.size(); ++i) {
    MeasuredGemm g = parse_gemm(gemms[i], path + ": gemms[" + std::to_string(i) + "]");
    g.file = path;
    f.gemms.push_back(std::move(g));
  }
  return f;
}

std::vector<std::string> measurement_paths(const std::string& file_or_dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  if (fs::is_directory(file_or_dir, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(file_or_dir))
      if (e.is_regular_file() && (e.path().extension() == ".json" || is_csv(e.path().string())))
        paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    if (paths.empty())
      throw InputError(file_or_dir + ": no *.json or *.csv measurement files in this directory");
  } else if (fs::is_regular_file(file_or_dir, ec)) {
    paths.push_back(file_or_dir);
  } else {
    throw InputError(file_or_dir + ": no such file or directory");
  }
  return paths;
}

namespace {

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  json j;
  try {
    in >> j;
  } catch (const json::exception& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  return j;
}

}  // namespace

std::vector<std::pair<std::string, json>> read_json_files(const std::string& file_or_dir) {
  std::vector<std::pair<std::string, json>> out;
  for (const auto& p : measurement_paths(file_or_dir))
    if (!is_csv(p)) out.emplace_back(p, read_json_file(p));
  return out;
}

bool is_ubench_file(const json& j) {
  if (!j.is_object()) return false;
  const auto it = j.find("schema");
  return it != j.end() && it->is_string() && it->get<std::string>() == "stcsim-ubench/1";
}

std::vector<MeasurementFile> load_measurements(const std::string& file_or_dir) {
  std::vector<MeasurementFile> out;
  for (const auto& p : measurement_paths(file_or_dir)) {  // in path order
    if (is_csv(p)) {
      std::ifstream in(p);
      if (!in) throw InputError(p + ": cannot be read");
      out.push_back(parse_measurements_csv(in, p));
    } else if (const json j = read_json_file(p); !is_ubench_file(j)) {
      out.push_back(parse_measurements(j, p));
    }
  }
  return out;
}

std::string single_device(const std::vector<std::string>& device_names) {
  for (const auto& d : device_names)
    if (d != device_names[0])
      throw InputError("--measurements: files from several devices ('" + device_names[0] + "', '" +
                       d + "'); compare one device at a time");
  return device_names.empty() ? "" : device_names[0];
}

std::string preset_for_device(const std::string& device_name) {
  std::string up = device_name;
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  if (up.find("H200") != std::string::npos) return "h200";
  if (up.find("H100") != std::string::npos) return "h100";
  if (up.find("A100") != std::string::npos) return "a100";
  if (up.find("V100") != std::string::npos) return "v100";
  return "";
}

}  // namespace stcsim::validation
