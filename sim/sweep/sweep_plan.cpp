#include "sim/sweep/sweep_plan.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"
#include "sim/sweep/fingerprint.h"

namespace stcsim::sweep {

std::string Point::value_of(const std::string& key) const {
  for (const auto& [k, v] : values)
    if (k == key) return v;
  return "";
}

SweepPlan::SweepPlan(SweepSpec spec) : spec_(std::move(spec)) {
  for (const auto& a : spec_.axes) {
    count_ *= std::int64_t(a.values.size());
    if (count_ > kMaxPoints)
      throw InputError(spec_.file + ": the sweep has more than " + std::to_string(kMaxPoints) +
                       " points; split it into several sweeps");
  }
  // The results table (results.csv/json, the report) holds every point's record in
  // memory: about 0.9 KB per point and workload in results.json, taken as 2 KiB in memory.
  const std::uint64_t rows =
      std::uint64_t(count_) * std::max<std::uint64_t>(1, spec_.workloads.size());
  admit_memory(rows * kTableBytesPerRow,
               spec_.file + ": the results table of " + std::to_string(count_) + " points x " +
                   std::to_string(spec_.workloads.size()) + " workloads (~2 KiB per row)");
  // The reference: the named value on each axis it mentions, the first value elsewhere.
  std::int64_t id = 0;
  for (const auto& a : spec_.axes) {
    std::size_t pick = 0;
    bool named = false;
    for (std::size_t i = 0; i < a.values.size() && !named; ++i) {
      bool all = true, any = false;
      for (std::size_t k = 0; k < a.keys.size(); ++k) {
        auto it = spec_.reference.find(a.keys[k]);
        if (it == spec_.reference.end()) continue;
        any = true;
        all = all && it->second == a.values[i][k];
      }
      if (!any) break;
      if (all) pick = i, named = true;
    }
    bool mentioned = false;
    for (const auto& k : a.keys) mentioned = mentioned || spec_.reference.count(k);
    if (mentioned && !named)
      throw InputError(spec_.reference_where.str() + ": reference values for '" + a.name +
                       "' match none of its values in 'vary'");
    id = id * std::int64_t(a.values.size()) + std::int64_t(pick);
  }
  reference_id_ = id;
}

Point SweepPlan::point(std::int64_t id) const {
  Point p;
  p.id = id;
  p.index.assign(spec_.axes.size(), 0);
  // Mixed radix, last axis fastest.
  std::int64_t rest = id;
  for (std::size_t a = spec_.axes.size(); a-- > 0;) {
    const auto n = std::int64_t(spec_.axes[a].values.size());
    p.index[a] = std::size_t(rest % n);
    rest /= n;
  }
  for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
    const Axis& ax = spec_.axes[a];
    for (std::size_t k = 0; k < ax.keys.size(); ++k)
      p.values.emplace_back(ax.keys[k], ax.values[p.index[a]][k]);
  }
  return p;
}

std::vector<std::string> SweepPlan::varied_keys() const {
  std::vector<std::string> out;
  for (const auto& a : spec_.axes) out.insert(out.end(), a.keys.begin(), a.keys.end());
  return out;
}

std::string SweepPlan::base_for(const Point& p) const {
  const std::string v = p.value_of("base");
  return v.empty() ? spec_.base : v;
}

std::string SweepPlan::dtype_for(const Point& p, const WorkloadSpec& w) const {
  const std::string v = p.value_of("dtype");
  return !v.empty() ? v : !w.dtype.empty() ? w.dtype : spec_.dtype;
}

std::string SweepPlan::sparsity_for(const Point& p) const {
  const std::string v = p.value_of("sparsity");
  return v.empty() ? spec_.sparsity : v;
}

std::string SweepPlan::l2_for(const Point& p) const {
  const std::string v = p.value_of("l2");
  return v.empty() ? spec_.l2 : v;
}

std::string SweepPlan::mode_for(const Point& p) const {
  const std::string v = p.value_of("mode");
  return v.empty() ? spec_.mode : v;
}

nlohmann::json SweepPlan::to_json() const {
  nlohmann::json j;
  j["schema_version"] = 1;
  j["name"] = spec_.name;
  j["base"] = spec_.base;
  if (spec_.base.find('/') != std::string::npos) j["base_fnv1a"] = fingerprint_file(spec_.base);
  j["dtype"] = spec_.dtype;
  j["sparsity"] = spec_.sparsity;
  j["l2"] = spec_.l2;
  if (spec_.mode != "cycle") j["mode"] = spec_.mode;  // absent: plans made before the key
  j["set"] = nlohmann::json::array();
  for (const auto& [k, v] : spec_.set) j["set"].push_back({k, v});
  j["axes"] = nlohmann::json::array();
  for (const auto& a : spec_.axes)
    j["axes"].push_back({{"name", a.name}, {"keys", a.keys}, {"values", a.values}});
  j["workloads"] = nlohmann::json::array();
  for (const auto& w : spec_.workloads) {
    nlohmann::json wj{{"name", w.name}, {"dtype", w.dtype.empty() ? spec_.dtype : w.dtype}};
    if (!w.gemm.empty()) wj["gemm"] = w.gemm;
    if (!w.model.empty()) {
      // The model and how it was traced, and the trace's contents; not the trace's path,
      // which lies in each shard's own folder.
      wj["model"] = w.model, wj["prune"] = w.prune, wj["batch"] = w.batch, wj["tokens"] = w.tokens;
      wj["trace_fnv1a"] = fingerprint_file(w.trace);
    } else if (!w.trace.empty()) {
      wj["trace"] = w.trace, wj["trace_fnv1a"] = fingerprint_file(w.trace);
    }
    j["workloads"].push_back(wj);
  }
  j["points"] = count_;
  j["reference_point"] = reference_id_;
  return j;
}

Shard parse_shard(const std::string& text) {
  Shard s;
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw 0;
    std::size_t u1 = 0, u2 = 0;
    s.index = std::stoll(text.substr(0, slash), &u1);
    s.count = std::stoll(text.substr(slash + 1), &u2);
    if (u1 != slash || u2 != text.size() - slash - 1) throw 0;
  } catch (...) {
    throw InputError("--shard " + text + ": expected I/N, e.g. --shard 0/4 (I counts from 0)");
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    throw InputError("--shard " + text + ": need N >= 1 and 0 <= I < N (I counts from 0)");
  return s;
}

}  // namespace stcsim::sweep
