#include "sim/sweep/report_data.h"

#include <algorithm>
#include <cmath>

namespace stcsim::sweep {

namespace {

std::optional<double> number(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
  } catch (...) {
  }
  return std::nullopt;
}

std::optional<double> opt_number(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

AxisInfo axis_info(const nlohmann::json& a) {
  AxisInfo ax;
  ax.name = a.at("name").get<std::string>();
  ax.keys = a.at("keys").get<std::vector<std::string>>();
  ax.numeric = true;
  for (const auto& vals : a.at("values")) {
    std::string label;
    for (const auto& v : vals) label += (label.empty() ? "" : "/") + v.get<std::string>();
    ax.labels.push_back(label);
    const auto n = number(vals.at(0).get<std::string>());
    ax.numeric = ax.numeric && n.has_value();
    ax.numbers.push_back(n.value_or(0));
  }
  if (ax.numeric) {
    const auto [lo, hi] = std::minmax_element(ax.numbers.begin(), ax.numbers.end());
    ax.log_scale = *lo > 0 && *hi / *lo >= 16;
  }
  return ax;
}

}  // namespace

ReportData load_report_data(const nlohmann::json& plan, const nlohmann::json& table) {
  ReportData d;
  d.name = plan.at("name").get<std::string>();
  for (const auto& a : plan.at("axes")) d.axes.push_back(axis_info(a));
  for (const auto& w : plan.at("workloads")) d.workloads.push_back(w.at("name").get<std::string>());
  d.points_total = plan.at("points").get<std::int64_t>();
  d.reference = plan.at("reference_point").get<std::int64_t>();
  const std::size_t nw = d.workloads.size();
  for (const auto& row : table.at("rows")) {
    const std::int64_t id = row.at("point").get<std::int64_t>();
    PointView& p = d.points[id];
    if (p.speedup.empty()) {
      p.id = id;
      p.ok = true;
      p.speedup.resize(nw);
      p.seconds.resize(nw);
      p.joules.resize(nw);
      p.limiter.resize(nw);
      std::int64_t rest = id;  // the plan's numbering: mixed radix, last axis fastest
      p.index.assign(d.axes.size(), 0);
      for (std::size_t a = d.axes.size(); a-- > 0;) {
        const auto n = std::int64_t(d.axes[a].labels.size());
        p.index[a] = std::size_t(rest % n);
        rest /= n;
      }
    }
    const auto w =
        std::size_t(std::find(d.workloads.begin(), d.workloads.end(), row.at("workload")) -
                    d.workloads.begin());
    if (w >= nw) continue;
    p.ok = p.ok && row.at("status") == "ok";
    p.speedup[w] = opt_number(row.at("speedup_vs_ref"));
    p.seconds[w] = opt_number(row.at("seconds"));
    if (row.contains("joules")) p.joules[w] = opt_number(row.at("joules"));
    if (row.at("limiter").is_string()) p.limiter[w] = row.at("limiter").get<std::string>();
    if (auto m = opt_number(row.at("tc_macs_per_cycle")))
      p.tc_macs_per_cycle = p.tc_macs_per_cycle.value_or(0) + *m / double(nw);
    if (row.contains("tc_area_cells"))
      if (auto a = opt_number(row.at("tc_area_cells")))
        p.tc_area_cells = p.tc_area_cells.value_or(0) + *a / double(nw);
  }
  for (auto& [id, p] : d.points) {
    double log_sum = 0;
    bool all = p.ok;
    for (const auto& s : p.speedup) {
      all = all && s && *s > 0;
      if (all) log_sum += std::log(*s);
    }
    if (all && nw > 0) p.geomean_speedup = std::exp(log_sum / double(nw));
    double joules = 0;
    bool every = p.ok && nw > 0;
    for (const auto& j : p.joules) {
      every = every && j && *j > 0;
      if (every) joules += *j;
    }
    if (every) p.total_joules = joules;
    if (!p.ok) p.tc_macs_per_cycle.reset();
    if (!p.ok) p.tc_area_cells.reset();
  }
  return d;
}

const PointView* ReportData::reference_point() const {
  auto it = points.find(reference);
  return it == points.end() ? nullptr : &it->second;
}

std::vector<const PointView*> ReportData::slice(std::size_t a, std::optional<std::size_t> b) const {
  std::vector<std::size_t> ref_index(axes.size(), 0);
  std::int64_t rest = reference;
  for (std::size_t i = axes.size(); i-- > 0;) {
    ref_index[i] = std::size_t(rest % std::int64_t(axes[i].labels.size()));
    rest /= std::int64_t(axes[i].labels.size());
  }
  std::vector<const PointView*> out;
  for (const auto& [id, p] : points) {
    bool on = true;
    for (std::size_t i = 0; i < axes.size() && on; ++i)
      on = i == a || (b && i == *b) || p.index[i] == ref_index[i];
    if (on) out.push_back(&p);
  }
  return out;
}

namespace {

// The points no other point beats on both speed and `cost` (smaller is better): sorted by
// cost, a point is on the front when it is faster than every cheaper one.
std::vector<const PointView*> front_by(const std::map<std::int64_t, PointView>& points,
                                       std::optional<double> PointView::*cost) {
  std::vector<const PointView*> cand;
  for (const auto& [id, p] : points)
    if (p.geomean_speedup && p.*cost) cand.push_back(&p);
  std::sort(cand.begin(), cand.end(), [cost](const PointView* x, const PointView* y) {
    if (*(x->*cost) != *(y->*cost)) return *(x->*cost) < *(y->*cost);
    if (*x->geomean_speedup != *y->geomean_speedup)
      return *x->geomean_speedup > *y->geomean_speedup;
    return x->id < y->id;
  });
  std::vector<const PointView*> front;
  double best = -1;
  for (const auto* p : cand)
    if (*p->geomean_speedup > best * (1 + 1e-9)) {
      front.push_back(p);
      best = *p->geomean_speedup;
    }
  return front;
}

}  // namespace

std::vector<const PointView*> ReportData::pareto_front() const {
  return front_by(points, &PointView::tc_area_cells);
}

std::vector<const PointView*> ReportData::ranked() const {
  std::vector<const PointView*> out;
  for (const auto& [id, p] : points)
    if (p.geomean_speedup) out.push_back(&p);
  auto cheaper = [](const std::optional<double>& x, const std::optional<double>& y) {
    if (x && y && *x != *y) return *x < *y ? -1 : 1;
    return 0;
  };
  std::sort(out.begin(), out.end(), [&](const PointView* a, const PointView* b) {
    const double sa = *a->geomean_speedup, sb = *b->geomean_speedup;
    if (std::fabs(sa - sb) > 1e-9 * std::max(sa, sb)) return sa > sb;
    if (int c = cheaper(a->tc_area_cells, b->tc_area_cells)) return c < 0;
    if (int c = cheaper(a->total_joules, b->total_joules)) return c < 0;
    return a->id < b->id;
  });
  return out;
}

std::vector<const PointView*> ReportData::energy_front() const {
  return front_by(points, &PointView::total_joules);
}

std::string ReportData::describe(const PointView& p) const {
  std::string s;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const auto& ax = axes[a];
    std::string keys;
    for (const auto& k : ax.keys) keys += (keys.empty() ? "" : "/") + k;
    s += (s.empty() ? "" : ", ") + keys + "=" + ax.labels[p.index[a]];
  }
  return s.empty() ? "(the base configuration)" : s;
}

}  // namespace stcsim::sweep
