#include "sim/sweep/report_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace stcsim::sweep {

namespace {

std::string fmt(double v, const char* f = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string us(const std::optional<double>& s) { return s ? fmt(*s * 1e6, "%.1f") : "-"; }

}  // namespace

std::string summary_markdown(const ReportData& d, const std::vector<PlotScript>& plots,
                             const std::vector<std::string>& failures) {
  std::ostringstream md;
  std::int64_t ok = 0;
  for (const auto& [id, p] : d.points) ok += p.ok ? 1 : 0;
  md << "# Sweep `" << d.name << "`\n\n"
     << d.points_total << " design points x " << d.workloads.size() << " workload(s); "
     << d.points.size() << " present, " << ok << " ran cleanly, " << d.points.size() - ok
     << " failed, " << d.points_total - std::int64_t(d.points.size()) << " missing.\n\n";
  md << "Varied: ";
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    md << (a ? "; " : "") << "`" << d.axes[a].name << "` (" << d.axes[a].labels.size()
       << " values)";
  }
  md << (d.axes.empty() ? "nothing (one point)" : "") << ".\n";
  md << "Workloads: ";
  for (std::size_t w = 0; w < d.workloads.size(); ++w)
    md << (w ? ", " : "") << "`" << d.workloads[w] << "`";
  md << ".\n\n";
  const PointView* ref = d.reference_point();
  md << "Speedups are relative to the reference point p" << d.reference << " (";
  if (ref)
    md << d.describe(*ref);
  else
    md << "absent: no speedups";
  md << ").\n\n";

  // Best overall: highest geometric mean of the speedups over the workloads; ties to the
  // cheaper design (smaller tensor-core area, then less energy).
  const std::vector<const PointView*> ranked = d.ranked();
  if (!ranked.empty()) {
    md << "## Best points (geomean speedup over the workloads; ties to the smaller area)\n\n| "
          "rank | point | speedup | TC area (Mcells) | parameters | limiter |\n"
          "|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(5, ranked.size()); ++i) {
      const auto* p = ranked[i];
      std::map<std::string, int> lim;
      for (const auto& l : p->limiter) ++lim[l];
      std::string l;
      for (const auto& [k, n] : lim)
        l += (l.empty() ? "" : ", ") + k + (lim.size() > 1 ? " x" + std::to_string(n) : "");
      md << "| " << i + 1 << " | p" << p->id << " | " << fmt(*p->geomean_speedup, "%.3f") << "x | "
         << (p->tc_area_cells ? fmt(*p->tc_area_cells / 1e6, "%.3f") : std::string("-")) << " | "
         << d.describe(*p) << " | " << l << " |\n";
    }
    md << "\n";
  }
  md << "## Best point per workload (shortest time)\n\n| workload | point | time (us) | speedup | "
        "parameters |\n|---|---|---|---|---|\n";
  for (std::size_t w = 0; w < d.workloads.size(); ++w) {
    const PointView* best = nullptr;
    for (const auto& [id, p] : d.points)
      if (p.seconds[w] && (!best || *p.seconds[w] < *best->seconds[w])) best = &p;
    if (!best) {
      md << "| " << d.workloads[w] << " | - | - | - | no results |\n";
      continue;
    }
    md << "| " << d.workloads[w] << " | p" << best->id << " | " << us(best->seconds[w]) << " | "
       << (best->speedup[w] ? fmt(*best->speedup[w], "%.3f") + "x" : "-") << " | "
       << d.describe(*best) << " |\n";
  }
  md << "\n";
  const auto front = d.pareto_front();
  if (front.size() > 1) {
    md << "## Pareto front (speed vs tensor-core area)\n\nArea: Yosys generic cells of the "
          "tensor cores' dot units, 2:4 selection and operand paths over the GPU (docs/rtl.md, "
          "\"Area model\").\n\n| point | TC area (Mcells) | MACs/cycle | speedup | "
          "parameters |\n|---|---|---|---|---|\n";
    for (const auto* p : front)
      md << "| p" << p->id << " | " << fmt(*p->tc_area_cells / 1e6, "%.3f") << " | "
         << (p->tc_macs_per_cycle ? fmt(*p->tc_macs_per_cycle, "%.0f") : std::string("-")) << " | "
         << fmt(*p->geomean_speedup, "%.3f") << "x | " << d.describe(*p) << " |\n";
    md << "\n";
  }
  const auto energy = d.energy_front();
  if (!energy.empty()) {
    md << "## Pareto front (speed vs energy)\n\n| point | joules | speedup | parameters "
          "|\n|---|---|---|---|\n";
    for (const auto* p : energy)
      md << "| p" << p->id << " | " << fmt(*p->total_joules, "%.4g") << " | "
         << fmt(*p->geomean_speedup, "%.3f") << "x | " << d.describe(*p) << " |\n";
    md << "\n";
  }
  if (!failures.empty()) {
    md << "## Failed points\n\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(10, failures.size()); ++i)
      md << "- " << failures[i] << "\n";
    if (failures.size() > 10)
      md << "- ... and " << failures.size() - 10 << " more (see results.csv)\n";
    md << "\n";
  }
  md << "## Plots\n\n";
  for (const auto& p : plots) {
    if (p.png.empty())
      md << "- " << p.caption << ".\n";
    else
      md << "- [" << p.png << "](" << p.png << "): " << p.caption << ".\n";
  }
  return md.str();
}

}  // namespace stcsim::sweep
