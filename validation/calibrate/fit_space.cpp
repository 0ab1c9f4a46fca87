#include "validation/calibrate/fit_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/input_error.h"
#include "sim/core/nearest.h"
#include "sim/core/number_syntax.h"
#include "sim/core/registry.h"

namespace stcsim::calibrate {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

double parse_bound(const FitParameter& p, const std::string& text, const std::string& spec) {
  std::string why;
  double v = 0;
  if (p.integer) {
    std::int64_t i = 0;
    why = parse_decimal_int(text, i);
    v = double(i);
  } else {
    why = parse_decimal_double(text, v);
  }
  if (!why.empty())
    throw InputError("--params " + spec + ": range bound '" + text + "': " + why + " (" +
                     p.dotted() + " is " + (p.integer ? "an integer" : "a number") + ", in " +
                     p.unit + ")");
  return v;
}

FitParameter parse_one(const std::string& spec, const Config& cfg) {
  const auto eq = spec.find('=');
  const std::string dotted = spec.substr(0, eq);
  const auto dot = dotted.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == dotted.size())
    throw InputError("--params " + spec +
                     ": expected section.key or section.key=lo:hi, e.g. l2.hit_latency_cycles");
  FitParameter p;
  p.section = dotted.substr(0, dot);
  p.key = dotted.substr(dot + 1);
  const auto& catalog = ComponentCatalog::instance();
  const auto kinds = catalog.kinds();
  if (std::find(kinds.begin(), kinds.end(), p.section) == kinds.end())
    throw InputError("--params " + spec + ": unknown parameter '" + dotted + "': no section '" +
                     p.section + "'; nearest valid: '" + nearest_name(p.section, kinds) + "'");
  const SectionConfig& sec = cfg.section(p.section);
  const ComponentInfo& info = catalog.get(p.section, sec.impl);
  const ParamDecl* decl = nullptr;
  std::vector<std::string> keys;
  for (const auto& d : info.params) {
    keys.push_back(d.key);
    if (d.key == p.key) decl = &d;
  }
  if (!decl)
    throw InputError("--params " + spec + ": unknown parameter '" + dotted + "' for " + p.section +
                     " '" + sec.impl + "'; nearest valid: '" + p.section + "." +
                     nearest_name(p.key, keys) + "' (stcsim components lists them)");
  if (decl->type != ParamType::Int && decl->type != ParamType::Float)
    throw InputError("--params " + spec + ": " + dotted + " is a " + to_string(decl->type) +
                     " parameter and has no range: only integer and float parameters can be "
                     "fitted (set it with -p instead)");
  p.integer = decl->type == ParamType::Int;
  p.unit = decl->unit;
  p.declared_lo = decl->min;
  p.declared_hi = decl->max;
  p.lo = decl->min;
  p.hi = decl->max;
  p.start = p.integer ? double(sec.params.get_int(p.key)) : sec.params.get_float(p.key);
  if (eq != std::string::npos) {
    const std::string range = spec.substr(eq + 1);
    const auto colon = range.find(':');
    if (colon == std::string::npos)
      throw InputError("--params " + spec + ": expected a range lo:hi after '=', e.g. " + dotted +
                       "=" + number(p.declared_lo) + ":" + number(p.declared_hi));
    p.lo = parse_bound(p, range.substr(0, colon), spec);
    p.hi = parse_bound(p, range.substr(colon + 1), spec);
    p.range_given = true;
    if (!(p.lo < p.hi))
      throw InputError("--params " + spec + ": the range's low end must be below its high end");
    if (p.lo < p.declared_lo || p.hi > p.declared_hi)
      throw InputError("--params " + spec + ": range " + number(p.lo) + ":" + number(p.hi) +
                       " is outside " + dotted + "'s declared range [" + number(p.declared_lo) +
                       ", " + number(p.declared_hi) + "] " + p.unit);
  }
  if (!std::isfinite(p.hi - p.lo) || !(p.lo < p.hi))
    throw InputError("--params " + spec + ": " + dotted +
                     " declares no usable range; give one as " + dotted + "=lo:hi");
  return p;
}

}  // namespace

double FitParameter::to_unit(double value) const { return (value - lo) / (hi - lo); }

double FitParameter::from_unit(double u) const {
  const double v = lo + std::clamp(u, 0.0, 1.0) * (hi - lo);
  return integer ? std::round(v) : v;
}

std::string FitParameter::format(double value) const {
  char buf[40];
  if (integer)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(value)));
  else
    std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::vector<FitParameter> parse_fit_space(const std::vector<std::string>& specs,
                                          const Config& cfg) {
  if (specs.empty())
    throw InputError("--params: no parameter to fit; list them as section.key[=lo:hi],...");
  std::vector<FitParameter> out;
  for (const auto& spec : specs) {
    FitParameter p = parse_one(spec, cfg);
    for (const auto& q : out)
      if (q.dotted() == p.dotted())
        throw InputError("--params: " + p.dotted() + " is listed twice");
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<int> integer_steps(const std::vector<FitParameter>& params) {
  std::vector<int> steps;
  for (const auto& p : params) steps.push_back(p.integer ? int(std::min(p.hi - p.lo, 1e9)) : 0);
  return steps;
}

std::vector<std::string> overrides_at(const std::vector<FitParameter>& params, const UnitPoint& u) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < params.size(); ++i)
    out.push_back(params[i].dotted() + "=" + params[i].format(params[i].from_unit(u[i])));
  return out;
}

UnitPoint start_point(const std::vector<FitParameter>& params) {
  UnitPoint u;
  for (const auto& p : params) u.push_back(p.to_unit(p.start));
  return u;
}

}  // namespace stcsim::calibrate
