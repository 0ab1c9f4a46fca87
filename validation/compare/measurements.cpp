#include "validation/compare/measurements.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "models/common/median.h"
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

// A whole-number field (a size, a tile, a count): a JSON integer of at least `min`. nlohmann's
// get<int> would read 128.5 as 128 and "128" not at all, with a message naming neither.
long long whole(const json& j, const char* key, long long min, const std::string& where) {
  const json& v = need(j, key, where);
  if (!v.is_number_integer())
    throw InputError(where + ": field '" + key + "': expected a whole number, got " + v.dump());
  const long long x = v.get<long long>();
  if (x < min || x > (1LL << 40))
    throw InputError(where + ": field '" + key + "': " + std::to_string(x) + " is out of range (" +
                     std::to_string(min) + " to 2^40)");
  return x;
}

int small_whole(const json& j, const char* key, long long min, const std::string& where) {
  const long long x = whole(j, key, min, where);
  if (x > (1LL << 30))
    throw InputError(where + ": field '" + key + "': " + std::to_string(x) + " is too large");
  return int(x);
}

int optional_whole(const json& j, const char* key, int fallback, long long min,
                   const std::string& where) {
  if (!j.is_object() || !j.contains(key)) return fallback;
  return small_whole(j, key, min, where);
}

std::optional<double> optional_number(const json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j.at(key).is_number()) return j.at(key).get<double>();
  return std::nullopt;
}

bool is_csv(const std::string& path) { return fs::path(path).extension() == ".csv"; }

// timing.warm_us: the harness's {median, ...} or the PyTorch baselines' list of samples.
std::optional<double> warm_median(const json& g, const std::string& where) {
  if (!g.contains("timing") || !g.at("timing").is_object() || !g.at("timing").contains("warm_us"))
    return std::nullopt;
  const json& w = g.at("timing").at("warm_us");
  const std::string at = where + ".timing.warm_us";
  double v = 0;
  if (w.is_object()) {
    v = get<double>(w, "median", at);
  } else if (w.is_array() && !w.empty()) {
    std::vector<double> xs;
    for (const auto& x : w) {
      if (!x.is_number()) throw InputError(at + ": expected a list of numbers");
      xs.push_back(x.get<double>());
    }
    v = median_of(std::move(xs));
  } else {
    throw InputError(at + ": expected {\"median\": us, ...} or a non-empty list of samples");
  }
  if (!(v > 0)) throw InputError(at + ": the median must be positive");
  return v;
}

MeasuredGemm parse_gemm(const json& g, const std::string& where) {
  MeasuredGemm r;
  r.name = get<std::string>(g, "name", where);
  r.m = whole(g, "m", 1, where);
  r.n = whole(g, "n", 1, where);
  r.k = whole(g, "k", 1, where);
  r.dtype = optional<std::string>(g, "dtype", "fp16", where);
  r.sparsity = optional<std::string>(g, "sparsity", "dense", where);
  r.kernel = get<std::string>(g, "kernel", where);
  r.time_us = get<double>(need(g, "time_us", where), "median", where + ".time_us");
  if (!(r.time_us > 0)) throw InputError(where + ": time_us.median must be positive");
  r.runs = optional_whole(need(g, "time_us", where), "runs", 0, 0, where + ".time_us");
  r.sm_clock_mhz = optional_number(g, "sm_clock_mhz_median");
  // Read only by `validate --time warm`: a malformed one leaves that comparison out, not
  // the file.
  try {
    r.warm_us = warm_median(g, where);
  } catch (const InputError& e) {
    r.warm_us_error = e.what();
  }
  if (g.contains("mapping") && g.at("mapping").is_object()) {
    const json& mp = g.at("mapping");
    const std::string w = where + ".mapping";
    MeasuredMapping m;
    m.cta_m = small_whole(mp, "cta_m", 1, w);
    m.cta_n = small_whole(mp, "cta_n", 1, w);
    m.cta_k = small_whole(mp, "cta_k", 1, w);
    m.warp_m = small_whole(mp, "warp_m", 1, w);
    m.warp_n = small_whole(mp, "warp_n", 1, w);
    m.stages = small_whole(mp, "stages", 1, w);
    m.swizzle = optional_whole(mp, "swizzle", 1, 1, w);
    m.split_k = optional_whole(mp, "split_k", 1, 1, w);
    m.smem_layout = optional<std::string>(mp, "smem_layout", "swizzled", w);
    r.mapping = m;
  }
  if (g.contains("padding") && !g.at("padding").is_null()) {
    const std::string w = where + ".padding";
    const json& pd = g.at("padding");
    if (!pd.is_object())
      throw InputError(w + ": expected null or {\"m\": M, \"n\": N, \"k\": K}, the padded problem");
    r.ran_m = whole(pd, "m", 1, w);
    r.ran_n = whole(pd, "n", 1, w);
    r.ran_k = whole(pd, "k", 1, w);
    if (r.ran_m < r.m || r.ran_n < r.n || r.ran_k < r.k)
      throw InputError(w + ": the padded problem " + std::to_string(r.ran_m) + "x" +
                       std::to_string(r.ran_n) + "x" + std::to_string(r.ran_k) +
                       " is smaller than the GEMM " + r.shape() + " in some dimension");
  }
  if (g.contains("bsr") && g.at("bsr").is_object()) {
    const json& b = g.at("bsr");
    r.block_rows = optional_whole(b, "block_rows", 0, 1, where + ".bsr");
    r.block_cols = optional_whole(b, "block_cols", 0, 1, where + ".bsr");
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
            PresetAgreementRecord{name, optional_whole(p, "compared", 0, 0, w + "." + name),
                                  optional_whole(p, "exact", 0, 0, w + "." + name),
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

std::string MeasuredGemm::ran_shape() const {
  if (!padded()) return shape();
  return std::to_string(ran_m) + "x" + std::to_string(ran_n) + "x" + std::to_string(ran_k);
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
  // The L2 each time_us met: flushed before every launch (the harness), or the state a
  // previous run of the same call left (published benchmark loops: settings.time_us_l2).
  std::string l2 = "flush";
  if (j.contains("settings") && j.at("settings").is_object())
    l2 = optional<std::string>(j.at("settings"), "time_us_l2", l2, path + ": settings");
  if (l2 != "flush" && l2 != "repeat")
    throw InputError(path + ": settings.time_us_l2: expected \"flush\" or \"repeat\", got \"" + l2 +
                     "\"");
  const json& gemms = need(j, "gemms", path);
  if (!gemms.is_array()) throw InputError(path + ": 'gemms' is not an array");
  for (std::size_t i = 0; i < gemms.size(); ++i) {
    MeasuredGemm g = parse_gemm(gemms[i], path + ": gemms[" + std::to_string(i) + "]");
    g.file = path;
    g.l2 = l2;
    f.gemms.push_back(std::move(g));
  }
  return f;
}

void use_warm_times(std::vector<MeasurementFile>& files) {
  for (auto& f : files)
    for (auto& g : f.gemms) {
      g.l2 = "repeat";
      if (g.warm_us)
        g.time_us = *g.warm_us;
      else if (!g.warm_us_error.empty())
        g.unusable = g.warm_us_error;
      else
        g.unusable = "no timing.warm_us to compare under --time warm";
    }
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
