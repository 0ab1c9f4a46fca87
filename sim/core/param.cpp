#include "sim/core/param.h"

#include <cmath>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/core/number_syntax.h"

namespace stcsim {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::Int:
      return "int";
    case ParamType::Float:
      return "float";
    case ParamType::Bool:
      return "bool";
    case ParamType::String:
      return "string";
  }
  return "?";
}

std::string format_value(const ParamValue& v) {
  std::ostringstream os;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>)
          os << (x ? "true" : "false");
        else
          os << x;
      },
      v);
  return os.str();
}

ParamDecl int_param(std::string key, std::string unit, std::optional<std::int64_t> def, double min,
                    double max, std::string description) {
  ParamDecl d{std::move(key),        ParamType::Int, std::move(unit), std::nullopt, min, max, {},
              std::move(description)};
  if (def) d.default_value = *def;
  return d;
}

ParamDecl float_param(std::string key, std::string unit, std::optional<double> def, double min,
                      double max, std::string description) {
  ParamDecl d{std::move(key),        ParamType::Float, std::move(unit), std::nullopt, min, max, {},
              std::move(description)};
  if (def) d.default_value = *def;
  return d;
}

ParamDecl bool_param(std::string key, bool def, std::string description) {
  return ParamDecl{std::move(key), ParamType::Bool, "-", def, 0, 1, {}, std::move(description)};
}

ParamDecl string_param(std::string key, std::optional<std::string> def,
                       std::vector<std::string> choices, std::string description) {
  ParamDecl d{std::move(key),     ParamType::String,     "-", std::nullopt, 0, 0,
              std::move(choices), std::move(description)};
  if (def) d.default_value = *def;
  return d;
}

std::string ValueSource::describe() const {
  if (file.empty()) return "(default)";
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

const ParamValue& ParamSet::at(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("parameter not declared or not resolved: " + key);
  return it->second;
}
std::int64_t ParamSet::get_int(const std::string& key) const {
  return std::get<std::int64_t>(at(key));
}
double ParamSet::get_float(const std::string& key) const {
  const auto& v = at(key);
  if (auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}
bool ParamSet::get_bool(const std::string& key) const { return std::get<bool>(at(key)); }
const std::string& ParamSet::get_string(const std::string& key) const {
  return std::get<std::string>(at(key));
}

namespace {
[[noreturn]] void bad(const std::string& where, const std::string& msg) {
  throw InputError(where + ": " + msg);
}
std::string range_text(const ParamDecl& d) {
  std::ostringstream os;
  os << "[" << d.min << ", " << d.max << "]";
  return os.str();
}
}  // namespace

ParamValue parse_param_value(const ParamDecl& d, const std::string& text,
                             const std::string& where) {
  const std::string expect = std::string("expected ") + to_string(d.type);
  switch (d.type) {
    case ParamType::Int: {
      // Decimal only (sim/core/number_syntax.h): stoll's base 0 once read "010" as 8.
      std::int64_t v = 0;
      if (const std::string why = parse_decimal_int(text, v); !why.empty())
        bad(where, expect + " (" + d.unit + "), got '" + text + "': " + why);
      if (v < d.min || v > d.max)
        bad(where, "value " + text + " is out of range " + range_text(d) + " " + d.unit);
      return static_cast<std::int64_t>(v);
    }
    case ParamType::Float: {
      double v = 0;
      if (const std::string why = parse_decimal_double(text, v); !why.empty())
        bad(where, expect + " (" + d.unit + "), got '" + text + "': " + why);
      if (v < d.min || v > d.max)
        bad(where, "value " + text + " is out of range " + range_text(d) + " " + d.unit);
      return v;
    }
    case ParamType::Bool:
      if (text == "true" || text == "1") return true;
      if (text == "false" || text == "0") return false;
      bad(where, "expected bool (true|false), got '" + text + "'");
    case ParamType::String:
      if (!d.choices.empty()) {
        bool ok = false;
        std::string all;
        for (const auto& c : d.choices) {
          ok = ok || c == text;
          all += (all.empty() ? "" : "|") + c;
        }
        if (!ok) bad(where, "expected one of " + all + ", got '" + text + "'");
      }
      return text;
  }
  bad(where, "unsupported parameter type");
}

void check_required(const std::vector<ParamDecl>& decls, const ParamSet& set,
                    const std::string& section, const std::string& where) {
  for (const auto& d : decls)
    if (!set.has(d.key))
      throw InputError(where + ": required key '" + section + "." + d.key + "' (" + d.unit + ": " +
                       d.description + ") is missing");
}

}  // namespace stcsim
