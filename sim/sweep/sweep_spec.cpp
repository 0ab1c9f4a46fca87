#include "sim/sweep/sweep_spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/config/yaml_document.h"
#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/core/nearest.h"
#include "sim/core/number_syntax.h"
#include "sim/sweep/value_range.h"

namespace stcsim::sweep {

bool is_run_option(const std::string& key) {
  return std::find(kRunOptionKeys.begin(), kRunOptionKeys.end(), key) != kRunOptionKeys.end();
}

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys = {
    "schema_version", "name",  "description", "base", "set",  "vary",
    "workloads",      "dtype", "sparsity",    "l2",   "mode", "reference"};
const std::vector<std::string> kWorkloadKeys = {"gemm",  "trace",  "model", "prune",
                                                "batch", "tokens", "name",  "dtype"};
const std::vector<std::string> kRangeKeys = {"from", "to", "step", "factor"};

class Parser {
 public:
  Parser(std::string file) : file_(std::move(file)) {
    dir_ = fs::absolute(fs::path(file_)).parent_path();
  }

  SweepSpec parse(const YAML::Node& root) {
    if (!root.IsMap())
      fail(root, "a sweep spec is a YAML mapping (schema_version, base, vary, workloads)");
    spec_.file = file_;
    check_keys(root, kTopKeys, "top-level key");
    auto ver = root["schema_version"];
    if (!ver) fail(root, "missing 'schema_version' (this stcsim reads schema_version: 1)");
    if (!ver.IsScalar() || ver.Scalar() != "1")
      fail(ver, "schema_version " + (ver.IsScalar() ? ver.Scalar() : "?") +
                    " is not supported (expected 1)");
    spec_.name = root["name"] ? scalar(root["name"], "name") : fs::path(file_).stem().string();
    auto base = root["base"];
    if (!base) fail(root, "missing 'base' (a preset such as a100, or a config .yaml)");
    spec_.base = resolve_base(scalar(base, "base"));
    if (root["dtype"]) spec_.dtype = scalar(root["dtype"], "dtype");
    if (root["sparsity"]) spec_.sparsity = scalar(root["sparsity"], "sparsity");
    if (root["l2"]) spec_.l2 = scalar(root["l2"], "l2");
    if (root["mode"]) spec_.mode = scalar(root["mode"], "mode");
    if (auto set = root["set"]) read_set(set);
    if (auto vary = root["vary"]) read_vary(vary);
    read_workloads(root["workloads"], root);
    if (auto ref = root["reference"]) read_reference(ref);
    return spec_;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    throw InputError(loc(n).str() + ": " + msg);
  }
  SpecLocation loc(const YAML::Node& n) const {
    return {file_, n.Mark().line >= 0 ? n.Mark().line + 1 : 0};
  }
  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, "'" + key + "' must be a single value");
    return n.Scalar();
  }
  void check_keys(const YAML::Node& map, const std::vector<std::string>& valid,
                  const std::string& what) const {
    for (const auto& kv : map) {
      const std::string k = kv.first.Scalar();
      if (std::find(valid.begin(), valid.end(), k) == valid.end())
        fail(kv.first, "unknown " + what + " '" + k + "'; nearest valid key: '" +
                           nearest_name(k, valid) + "'");
    }
  }
  std::string resolve_path(const std::string& p) const {
    return fs::path(p).is_absolute() ? p : (dir_ / p).lexically_normal().string();
  }
  // Same rule as load_arch: a path has a '/' or a .yaml/.yml suffix; else a preset name.
  std::string resolve_base(const std::string& b) const {
    const bool path = b.find('/') != std::string::npos ||
                      (b.size() > 5 && b.substr(b.size() - 5) == ".yaml") ||
                      (b.size() > 4 && b.substr(b.size() - 4) == ".yml");
    return path ? resolve_path(b) : b;
  }

  // `section.key`, or one of the run options.
  void check_key_shape(const YAML::Node& key_node) const {
    const std::string k = key_node.Scalar();
    const auto dot = k.find('.');
    if (is_run_option(k)) return;
    if (dot == std::string::npos || dot == 0 || dot + 1 == k.size() ||
        k.find('.', dot + 1) != std::string::npos)
      fail(key_node, "'" + k +
                         "' is neither section.key (see `stcsim components`) nor a run option "
                         "(base, dtype, sparsity, l2)");
  }
  void claim(const YAML::Node& key_node) {
    const std::string k = key_node.Scalar();
    if (!claimed_.insert(k).second)
      fail(key_node, "'" + k + "' is given more than once (in set or vary)");
  }

  void read_set(const YAML::Node& set) {
    if (!set.IsMap()) fail(set, "'set' must be a mapping of section.key: value");
    for (const auto& kv : set) {
      check_key_shape(kv.first);
      claim(kv.first);
      const std::string k = kv.first.Scalar();
      if (is_run_option(k)) fail(kv.first, "put '" + k + "' at the top level, not under 'set'");
      spec_.set.emplace_back(k, scalar(kv.second, k));
      spec_.set_where[k] = loc(kv.first);
    }
  }

  // A list of scalars or a range mapping -> values with their lines.
  std::vector<std::string> read_values(const YAML::Node& n, const std::string& key,
                                       std::vector<SpecLocation>& where) const {
    std::vector<std::string> out;
    if (n.IsSequence()) {
      if (n.size() == 0) fail(n, "'" + key + "': the list of values is empty");
      for (const auto& v : n) {
        if (!v.IsScalar())
          fail(v, "'" + key + "': each value must be a single value, not a list or mapping");
        if (std::find(out.begin(), out.end(), v.Scalar()) != out.end())
          fail(v, "'" + key + "': value '" + v.Scalar() + "' is listed twice");
        out.push_back(v.Scalar());
        where.push_back(loc(v));
      }
      return out;
    }
    if (n.IsMap() && n["from"]) {
      check_keys(n, kRangeKeys, "range key in '" + key + "'");
      const std::string at = loc(n).str() + ": " + key;
      if (!n["to"] || (!n["step"] == !n["factor"]))
        fail(n, "'" + key + "': a range needs from, to and one of step or factor");
      out = n["step"] ? linear_range(scalar(n["from"], "from"), scalar(n["to"], "to"),
                                     scalar(n["step"], "step"), at)
                      : geometric_range(scalar(n["from"], "from"), scalar(n["to"], "to"),
                                        scalar(n["factor"], "factor"), at);
      where.assign(out.size(), loc(n));
      return out;
    }
    fail(n, "'" + key + "': expected a list of values or a range {from, to, step|factor}");
  }

  void read_vary(const YAML::Node& vary) {
    if (!vary.IsMap())
      fail(vary, "'vary' must be a mapping: key: [values] or group: {key: [values], ...}");
    for (const auto& kv : vary) {
      const std::string k = kv.first.Scalar();
      const bool group = k.find('.') == std::string::npos && !is_run_option(k) &&
                         kv.second.IsMap() && !kv.second["from"];
      Axis axis;
      axis.name = k;
      if (!group) {
        check_key_shape(kv.first);
        claim(kv.first);
        axis.keys = {k};
        for (auto& v : read_values(kv.second, k, axis.where)) axis.values.push_back({v});
      } else {
        read_group(kv.first, kv.second, axis);
      }
      spec_.axes.push_back(std::move(axis));
    }
  }

  void read_group(const YAML::Node& name, const YAML::Node& body, Axis& axis) {
    if (body.size() == 0) fail(body, "zipped group '" + name.Scalar() + "' is empty");
    std::size_t n = 0;
    for (const auto& kv : body) {
      check_key_shape(kv.first);
      claim(kv.first);
      std::vector<SpecLocation> where;
      const auto vals = read_values(kv.second, kv.first.Scalar(), where);
      if (axis.keys.empty()) {
        n = vals.size();
        axis.values.assign(n, {});
        axis.where = where;
      } else if (vals.size() != n) {
        fail(kv.second, "zipped group '" + name.Scalar() + "': '" + kv.first.Scalar() + "' has " +
                            std::to_string(vals.size()) + " values but '" + axis.keys[0] +
                            "' has " + std::to_string(n) +
                            "; zipped lists advance together and must be equally long");
      }
      axis.keys.push_back(kv.first.Scalar());
      for (std::size_t i = 0; i < n; ++i) axis.values[i].push_back(vals[i]);
    }
  }

  void read_workloads(const YAML::Node& w, const YAML::Node& root) {
    if (!w)
      fail(root, "missing 'workloads' (a list of {gemm: MxNxK}, {trace: FILE} or {model: NAME})");
    if (!w.IsSequence() || w.size() == 0) fail(w, "'workloads' must be a non-empty list");
    std::set<std::string> names;
    for (const auto& item : w) {
      WorkloadSpec ws;
      ws.where = loc(item);
      if (item.IsScalar()) {
        ws.gemm = item.Scalar();  // shorthand: "- 4096x4096x4096"
      } else {
        if (!item.IsMap())
          fail(item, "a workload is {gemm: MxNxK}, {trace: FILE} or {model: NAME}");
        check_keys(item, kWorkloadKeys, "workload key");
        if (int(bool(item["gemm"])) + int(bool(item["trace"])) + int(bool(item["model"])) != 1)
          fail(item, "a workload has exactly one of 'gemm', 'trace' or 'model'");
        if (item["gemm"]) ws.gemm = scalar(item["gemm"], "gemm");
        if (item["trace"]) ws.trace = resolve_path(scalar(item["trace"], "trace"));
        if (item["model"]) {
          // A name of `stcsim models`, or a path (it has a '/' or a file extension).
          ws.model = scalar(item["model"], "model");
          if (ws.model.find('/') != std::string::npos || fs::path(ws.model).has_extension())
            ws.model = resolve_path(ws.model);
        }
        for (const char* key : {"prune", "batch", "tokens"})
          if (item[key] && !item["model"])
            fail(item[key], std::string("'") + key + "' belongs to a {model: NAME} workload");
        if (item["prune"]) ws.prune = scalar(item["prune"], "prune");
        for (auto [key, dst] : {std::pair{"batch", &ws.batch}, {"tokens", &ws.tokens}})
          if (item[key]) {
            const std::string v = scalar(item[key], key);
            if (!decimal_syntax_error(v, true).empty() || v[0] == '-' || v[0] == '+' ||
                v.size() > 9 || std::stoll(v) < 1)
              fail(item[key],
                   std::string("'") + key + "' must be a whole number from 1, got '" + v + "'");
            *dst = std::stoll(v);
          }
        if (item["dtype"]) ws.dtype = scalar(item["dtype"], "dtype");
        if (item["name"]) ws.name = scalar(item["name"], "name");
      }
      if (ws.name.empty())
        ws.name = !ws.gemm.empty()    ? ws.gemm
                  : !ws.model.empty() ? fs::path(ws.model).stem().string() +
                                            (ws.prune == "dense" ? "" : "_" + ws.prune)
                                      : fs::path(ws.trace).stem().string();
      if (ws.name.find_first_of(",\"\n") != std::string::npos)
        fail(item, "workload name '" + ws.name + "' may not contain commas, quotes or newlines");
      if (!names.insert(ws.name).second)
        fail(item, "two workloads are named '" + ws.name + "'; give each a distinct 'name'");
      spec_.workloads.push_back(ws);
    }
  }

  void read_reference(const YAML::Node& ref) {
    if (!ref.IsMap()) fail(ref, "'reference' must be a mapping of varied key: value");
    spec_.reference_where = loc(ref);
    for (const auto& kv : ref) {
      const std::string k = kv.first.Scalar();
      bool varied = false;
      for (const auto& a : spec_.axes)
        varied = varied || std::find(a.keys.begin(), a.keys.end(), k) != a.keys.end();
      if (!varied) fail(kv.first, "reference key '" + k + "' is not varied in 'vary'");
      spec_.reference[k] = scalar(kv.second, k);
    }
  }

  std::string file_;
  fs::path dir_;
  SweepSpec spec_;
  std::set<std::string> claimed_;
};

}  // namespace

SweepSpec parse_sweep_spec_text(const std::string& text, const std::string& file) {
  const YAML::Node root = load_yaml_document(text, file);
  return Parser(file).parse(root);
}

SweepSpec parse_sweep_spec_file(const std::string& path) {
  return parse_sweep_spec_text(read_input_file(path, "sweep spec"), path);
}

}  // namespace stcsim::sweep
