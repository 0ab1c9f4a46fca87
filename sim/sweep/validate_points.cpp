#include "sim/sweep/validate_points.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/common/dtype.h"
#include "models/common/mma_kind.h"
#include "models/gpu/l2_policy.h"
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
  const std::string mode = plan.mode_for(p);
  if (mode != "cycle" && mode != "steady" && mode != "analytic")
    throw InputError(where_of(s, p, "mode").str() +
                     ": mode: expected cycle, steady or analytic, got '" + mode + "'");
  const std::string l2 = plan.l2_for(p);
  if (!l2_policy_named(l2))
    throw InputError(where_of(s, p, "l2").str() + ": l2: expected " + kL2PolicyNames + ", got '" +
                     l2 + "'");
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

namespace {

// The first override of one section's list that fails on the base, if any.
struct SectionOutcome {
  std::size_t failed_at = 0;  // index into the list; == size when all applied
  std::string message;
};

SectionOutcome apply_section(Config cfg, const std::vector<std::string>& assignments) {
  SectionOutcome o{assignments.size(), ""};
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    try {
      apply_override(cfg, assignments[i]);
    } catch (const InputError& e) {
      o.failed_at = i;
      o.message = without_p_prefix(e.what());
      break;
    }
  }
  return o;
}

}  // namespace

void validate_plan(const SweepPlan& plan) {
  const SweepSpec& s = plan.spec();
  if (s.workloads.empty()) throw InputError(s.file + ": the sweep has no workloads");
  std::map<std::string, Config> bases;  // loading a preset once per base, not per point
  // An override changes only its own section, and the defaults it resolves can then fail
  // only there, so a point's overrides are valid section by section: each section's list
  // (in point order, on the point's base) is checked once and remembered. A sweep of a
  // million points over three keys checks a few hundred lists instead of a million
  // configs; the error, when there is one, is the same first failing override.
  std::map<std::string, SectionOutcome> checked;
  std::set<std::string> seen;
  for (std::int64_t id = 0; id < plan.count(); ++id) {
    const Point p = plan.point(id);
    const std::string base = plan.base_for(p);
    auto it = bases.find(base);
    if (it == bases.end()) it = bases.emplace(base, base_config(plan, p)).first;
    std::map<std::string, std::vector<std::size_t>> by_section;  // indices into p.values
    for (std::size_t i = 0; i < p.values.size(); ++i)
      if (!is_run_option(p.values[i].first))
        by_section[p.values[i].first.substr(0, p.values[i].first.find('.'))].push_back(i);
    std::size_t first_bad = p.values.size();
    std::string message;
    for (const auto& [section, indices] : by_section) {
      std::vector<std::string> assignments;
      std::string key = base;
      for (auto i : indices) {
        assignments.push_back(p.values[i].first + "=" + p.values[i].second);
        key += '\n' + assignments.back();
      }
      if (checked.size() >= 100000) checked.clear();  // keys varied together in one section
      auto c = checked.find(key);
      if (c == checked.end())
        c = checked.emplace(key, apply_section(it->second, assignments)).first;
      if (c->second.failed_at < indices.size() && indices[c->second.failed_at] < first_bad) {
        first_bad = indices[c->second.failed_at];
        message = c->second.message;
      }
    }
    if (first_bad < p.values.size()) {
      const auto& [k, v] = p.values[first_bad];
      throw InputError(where_of(s, p, k).str() + ": vary " + k + " = '" + v + "' (point " +
                       std::to_string(id) + "): " + message);
    }
    check_run_options(plan, p, seen);
  }
}

}  // namespace stcsim::sweep
