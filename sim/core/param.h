// Parameters are declared once, in code, next to the component that reads them:
// key, type, unit, default (or required), valid range and a one-line description.
// Config files and -p overrides only supply values for declared keys.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace stcsim {

enum class ParamType { Int, Float, Bool, String };
const char* to_string(ParamType t);

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;
std::string format_value(const ParamValue& v);

struct ParamDecl {
  std::string key;  // relative to its component's section, e.g. "capacity_mib"
  ParamType type = ParamType::Int;
  std::string unit;                         // "cycles", "bytes", "GB/s", "-" for dimensionless
  std::optional<ParamValue> default_value;  // empty: required
  double min = -1e300;
  double max = 1e300;
  std::vector<std::string> choices;  // for String parameters with a closed set
  std::string description;
};

// Builders that keep declarations one line each.
ParamDecl int_param(std::string key, std::string unit, std::optional<std::int64_t> def, double min,
                    double max, std::string description);
ParamDecl float_param(std::string key, std::string unit, std::optional<double> def, double min,
                      double max, std::string description);
ParamDecl bool_param(std::string key, bool def, std::string description);
ParamDecl string_param(std::string key, std::optional<std::string> def,
                       std::vector<std::string> choices, std::string description);

// Where a value came from, for error messages and the resolved config.
struct ValueSource {
  std::string file;  // "" for built-in defaults
  int line = 0;      // 1-based; 0 when unknown
  std::string describe() const;
};

// Resolved, typed values for one component's declared parameters.
class ParamSet {
 public:
  void set(const std::string& key, ParamValue v) { values_[key] = std::move(v); }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;
  const std::map<std::string, ParamValue>& values() const { return values_; }

 private:
  const ParamValue& at(const std::string& key) const;
  std::map<std::string, ParamValue> values_;
};

// Parse `text` as a value of `decl`'s type and check its range and choices.
// Throws InputError naming `where` (e.g. "a100.yaml:12: l2.capacity_mib") on failure.
ParamValue parse_param_value(const ParamDecl& decl, const std::string& text,
                             const std::string& where);

// Defaults for every declared key; throws InputError naming the first missing required key.
void check_required(const std::vector<ParamDecl>& decls, const ParamSet& set,
                    const std::string& section, const std::string& where);

}  // namespace stcsim
