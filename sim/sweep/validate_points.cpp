#include "sim/sweep/validate_points.h"

#include <map>
#include <set>

#include "models/common/dtype.h"
#include "models/common/mma_kind.h"
#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "sim/driver/gemm_list.h"
#include "sim/sweep/workload_check.h"

namespace stcsim::sweep {

namespace {

// apply_override speaks of "-p ..."; in a sweep the user wrote the value in the spec.
std::string without_p_prefix(std::string msg) {
  if (msg.rfind("-p: ", 0) == 0) return msg.substr(4);
  if (msg.rfind("-p ", 0) == 0) return msg.substr(3);
  return msg;
}

// The spec line of a point's value for `key`; the spec itself for top-level options.
SpecLocation where_of(const SweepSpec& s, const Point& p, const std::string& key) {
  for (std::size_t a = 0; a < s.axes.size(); ++a)
    for (const auto& k : s.axes[a].keys)
      if (k == key) return s.axes[a].where[p.index[a]];
  auto it = s.set_where.find(key);
  return it != s.set_where.end() ? it->second : SpecLocation{s.file, 0};
}

Config base_config(const SweepPlan& plan, const Point& p) {
  const SweepSpec& s = plan.spec();
  const std::string base = plan.base_for(p);
  Config cfg;
  try {
    cfg = load_arch(base);
  } catch (const InputError& e) {
    throw InputError(where_of(s, p, "base").str() + ": base '" + base + "': " + e.what());
  }
  for (const auto& [k, v] : s.set) {
    try {
      apply_override(cfg, k + "=" + v);
    } catch (const InputError& e) {
      throw InputError(s.set_where.at(k).str() + ": set " + k + ": " + without_p_prefix(e.what()));
    }
  }
  return cfg;
}

// dtype, sparsity and the workloads take few distinct combinations: check each once.
void check_run_options(const SweepPlan& plan, const Point& p, std::set<std::string>& seen) {
  const SweepSpec& s = plan.spec();
  const std::string sp = plan.sparsity_for(p);
  if (seen.insert("sparsity|" + sp).second) {
    try {
      parse_sparsity(sp);
    } catch (const InputError& e) {
      throw InputError(where_of(s, p, "sparsity").str() + ": sparsity: " + e.what());
    }
  }
  const std::string l2 = plan.l2_for(p);
  if (l2 != "flush" && l2 != "warm")
    throw InputError(where_of(s, p, "l2").str() + ": l2: expected flush or warm, got '" + l2 + "'");
  for (const auto& w : s.workloads) {
    const std::string dt = plan.dtype_for(p, w);
    if (!seen.insert(w.name + "|" + dt).second) continue;
    const std::string at = w.where.str() + ": workload '" + w.name + "'";
    Dtype dtype;
    try {
      dtype = parse_dtype(dt);
    } catch (const InputError& e) {
      const auto src =
          p.value_of("dtype").empty() && !w.dtype.empty() ? w.where : where_of(s, p, "dtype");
      throw InputError(src.str() + ": dtype: " + e.what());
    }
    try {
      if (!w.gemm.empty()) parse_gemm(w.gemm, dtype, "gemm");
      if (!w.trace.empty()) check_trace(w.trace, dtype);
    } catch (const InputError& e) {
      throw InputError(at + ": " + e.what());
    }
  }
}

}  // namespace

void validate_plan(const SweepPlan& plan) {
  const SweepSpec& s = plan.spec();
  if (s.workloads.empty()) throw InputError(s.file + ": the sweep has no workloads");
  std::map<std::string, Config> bases;  // loading a preset once per base, not per point
  std::set<std::string> seen;
  for (std::int64_t id = 0; id < plan.count(); ++id) {
    const Point p = plan.point(id);
    auto it = bases.find(plan.base_for(p));
    if (it == bases.end()) it = bases.emplace(plan.base_for(p), base_config(plan, p)).first;
    Config cfg = it->second;
    for (const auto& [k, v] : p.values) {
      if (is_run_option(k)) continue;
      try {
        apply_override(cfg, k + "=" + v);
      } catch (const InputError& e) {
        throw InputError(where_of(s, p, k).str() + ": vary " + k + " = '" + v + "' (point " +
                         std::to_string(id) + "): " + without_p_prefix(e.what()));
      }
    }
    check_run_options(plan, p, seen);
  }
}

}  // namespace stcsim::sweep
