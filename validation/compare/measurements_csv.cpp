#include "validation/compare/measurements_csv.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "sim/core/input_error.h"

namespace stcsim::validation {

namespace {

const std::vector<std::string> kRequired = {"device", "name", "m", "n", "k", "kernel", "time_us"};
const std::set<std::string> kOptional = {"dtype",  "sparsity", "sm_clock_mhz", "runs",
                                         "preset", "mapping",  "block",        "pruned"};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Fields of one line, split at commas outside double quotes ("" inside quotes is a quote).
// False when a quote is left open.
bool split_fields(const std::string& line, std::vector<std::string>& out) {
  out.clear();
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(trim(field));
      field.clear();
    } else {
      field += c;
    }
  }
  out.push_back(trim(field));
  return !quoted;
}

struct Row {
  const std::map<std::string, std::size_t>& column;
  const std::vector<std::string>& fields;
  std::string where;  // "FILE:LINE"

  bool has(const std::string& c) const {
    const auto it = column.find(c);
    return it != column.end() && !fields[it->second].empty();
  }
  std::string text(const std::string& c) const {
    const auto it = column.find(c);
    if (it == column.end() || fields[it->second].empty())
      throw InputError(where + ": column '" + c + "' is empty; it is required");
    return fields[it->second];
  }
  [[noreturn]] void bad(const std::string& c, const char* expected) const {
    throw InputError(where + ": column '" + c + "': expected " + expected + ", got '" + text(c) +
                     "'");
  }
  long long positive_int(const std::string& c) const {
    const std::string t = text(c);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v <= 0) bad(c, "a positive integer");
    return v;
  }
  double number(const std::string& c, const char* expected, double lo, bool lo_open,
                double hi) const {
    const std::string t = text(c);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (errno != 0 || *end != '\0' || !(lo_open ? v > lo : v >= lo) || !(v <= hi) || v != v)
      bad(c, expected);
    return v;
  }
};

MeasuredGemm parse_row(const Row& r) {
  MeasuredGemm g;
  g.name = r.text("name");
  g.m = r.positive_int("m");
  g.n = r.positive_int("n");
  g.k = r.positive_int("k");
  g.kernel = r.text("kernel");
  g.time_us = r.number("time_us", "a time in microseconds above zero", 0, true, 1e12);
  if (r.has("dtype")) g.dtype = r.text("dtype");
  if (r.has("sparsity")) g.sparsity = r.text("sparsity");
  if (r.has("runs")) g.runs = int(r.positive_int("runs"));
  if (r.has("sm_clock_mhz"))
    g.sm_clock_mhz = r.number("sm_clock_mhz", "a clock in MHz above zero", 0, true, 1e5);
  if (r.has("mapping")) {
    g.mapping = parse_mapping_text(r.text("mapping"));
    if (!g.mapping) r.bad("mapping", "a mapping like '128x128x64/64x64 s3 sw1'");
  }
  if (r.has("block")) {
    static const std::regex block(R"(([0-9]{1,4})x([0-9]{1,4}))");
    std::smatch m;
    const std::string t = r.text("block");
    if (!std::regex_match(t, m, block) || std::stoi(m[1]) == 0 || std::stoi(m[2]) == 0)
      r.bad("block", "a block shape like '32x32'");
    g.block_rows = std::stoi(m[1]);
    g.block_cols = std::stoi(m[2]);
  }
  if (r.has("pruned"))
    g.pruned = r.number("pruned", "the fraction pruned, in [0, 1)", 0, false, 0.999999);
  return g;
}

}  // namespace

std::optional<MeasuredMapping> parse_mapping_text(const std::string& text) {
  static const std::regex form(
      R"(([0-9]{1,4})x([0-9]{1,4})x([0-9]{1,4})/([0-9]{1,4})x([0-9]{1,4}) s([0-9]{1,2})(?: sw([0-9]{1,2}))?(?: split([0-9]{1,3}))?)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  MeasuredMapping p;
  p.cta_m = std::stoi(m[1]);
  p.cta_n = std::stoi(m[2]);
  p.cta_k = std::stoi(m[3]);
  p.warp_m = std::stoi(m[4]);
  p.warp_n = std::stoi(m[5]);
  p.stages = std::stoi(m[6]);
  if (m[7].matched) p.swizzle = std::stoi(m[7]);
  if (m[8].matched) p.split_k = std::stoi(m[8]);
  return p;
}

MeasurementFile parse_measurements_csv(std::istream& in, const std::string& path) {
  MeasurementFile f;
  f.path = path;
  f.command = "(hand-written table)";
  std::map<std::string, std::size_t> column;
  std::size_t width = 0;
  std::vector<std::string> fields;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = path + ":" + std::to_string(number);
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (!split_fields(t, fields)) throw InputError(where + ": a double quote is not closed");
    if (column.empty()) {  // the header
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string& c = fields[i];
        if (std::find(kRequired.begin(), kRequired.end(), c) == kRequired.end() &&
            !kOptional.count(c))
          throw InputError(where + ": unknown column '" + c +
                           "' (columns: device, name, m, n, k, kernel, time_us; optional: dtype, "
                           "sparsity, sm_clock_mhz, runs, preset, mapping, block, pruned)");
        if (!column.emplace(c, i).second)
          throw InputError(where + ": column '" + c + "' given twice");
      }
      for (const auto& c : kRequired)
        if (!column.count(c))
          throw InputError(where + ": the header has no '" + c +
                           "' column (required: device, name, m, n, k, kernel, time_us)");
      width = fields.size();
      continue;
    }
    if (fields.size() != width)
      throw InputError(where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                       std::to_string(width));
    const Row row{column, fields, where};
    const std::string device = row.text("device");
    if (f.gemms.empty()) {
      f.device_name = device;
    } else if (device != f.device_name) {
      throw InputError(where + ": device '" + device + "', earlier rows say '" + f.device_name +
                       "'; one device per file");
    }
    if (row.has("preset")) {
      const std::string p = row.text("preset");
      if (!f.preset.empty() && p != f.preset)
        throw InputError(where + ": preset '" + p + "', earlier rows say '" + f.preset + "'");
      f.preset = p;
    }
    f.gemms.push_back(parse_row(row));
    f.gemms.back().file = path;
  }
  if (column.empty()) throw InputError(path + ": no header row (an empty measurement table)");
  if (f.gemms.empty()) throw InputError(path + ": a header but no measured GEMM");
  return f;
}

}  // namespace stcsim::validation
