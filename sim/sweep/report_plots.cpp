#include "sim/sweep/report_plots.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/core/registry.h"
#include "sim/sweep/gnuplot_script.h"
#include "sim/sweep/point_record.h"

namespace stcsim::sweep {

namespace {

// Plots' data and scripts are outputs like any other: written whole or not at all.
void write_text(const std::string& path, const std::string& text) { write_atomically(path, text); }

// x of value v on axis a: the number itself, or its position for words (dense, 2:4).
double x_of(const AxisInfo& a, std::size_t v) { return a.numeric ? a.numbers[v] : double(v); }

// A swept key in words: its parameter's one-line description (up to its first ';' or
// '(' and at most 60 characters) and unit, then the key itself, e.g. "initiation interval
// of an fp16 mma (cycles) [tensor_core.fp16_ii_cycles]". Keys that are no component
// parameter (arch, a workload) stay as they are.
std::string key_label(const std::string& key) {
  const auto dot = key.find('.');
  if (dot == std::string::npos) return key;
  const std::string section = key.substr(0, dot), name = key.substr(dot + 1);
  for (const ComponentInfo& c : ComponentCatalog::instance().all()) {
    if (c.kind != section) continue;
    for (const ParamDecl& d : c.params) {
      if (d.key != name) continue;
      std::string words = d.description.substr(0, d.description.find_first_of(";("));
      while (!words.empty() && words.back() == ' ') words.pop_back();
      if (words.size() > 60) words = words.substr(0, 57) + "...";
      const bool unit = !d.unit.empty() && d.unit != "-";
      if (words.empty()) return unit ? key + " (" + d.unit + ")" : key;
      return words + (unit ? " (" + d.unit + ")" : "") + " [" + key + "]";
    }
  }
  return key;
}

// An axis's keys in words, '/'-joined when several are zipped into one axis.
std::string axis_label(const AxisInfo& a) {
  std::string keys;
  for (const auto& k : a.keys) keys += (keys.empty() ? "" : " / ") + key_label(k);
  return keys.empty() ? a.name : keys;
}

// Tics at the swept values themselves when they are few, so a reader sees the grid.
std::string x_axis_setup(const AxisInfo& a) {
  std::ostringstream os;
  os << "set xlabel " << gp_str(axis_label(a)) << "\n";
  if (a.log_scale) os << "set logscale x 2\n";
  if (!a.numeric || a.labels.size() <= 12) {
    os << "set xtics (";
    for (std::size_t v = 0; v < a.labels.size(); ++v)
      os << (v ? ", " : "") << gp_str(a.labels[v]) << " " << gp_number(x_of(a, v));
    os << ")\n";
    if (a.labels.size() > 6) os << "set xtics rotate by -30\n";
  }
  // Margins so that points on the extremes are not cut by the frame.
  double x_pad = 0;
  if (!a.numeric) {
    os << "set xrange [-0.5:" << double(a.labels.size()) - 0.5 << "]\n";
  } else if (a.labels.size() == 1) {
    os << "set xrange [" << a.numbers[0] * 0.5 << ":" << a.numbers[0] * 1.5 << "]\n";
  } else {
    const auto [lo, hi] = std::minmax_element(a.numbers.begin(), a.numbers.end());
    if (a.log_scale)
      os << "set xrange [" << *lo / 1.25 << ":" << *hi * 1.25 << "]\n";
    else
      x_pad = (*hi - *lo) * 0.05;
  }
  os << "set offsets " << x_pad << ", " << x_pad << ", graph 0.06, graph 0.06\n";
  return os.str();
}

bool spans_decade(const std::vector<double>& v) {
  if (v.empty()) return false;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *lo > 0 && *hi / *lo >= 10;
}

}  // namespace

std::vector<PlotScript> write_axis_plots(const ReportData& d, const std::string& dir) {
  std::vector<PlotScript> out;
  const std::size_t nw = d.workloads.size();
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    const AxisInfo& ax = d.axes[a];
    const std::string base = "speedup_" + safe_name(ax.name);
    // The slice through the reference: x, then speedup and time (us) per workload.
    std::ostringstream slice, all;
    bool any_speedup = false;
    std::vector<double> times;
    auto sl = d.slice(a);
    std::sort(sl.begin(), sl.end(), [&](auto* p, auto* q) { return p->index[a] < q->index[a]; });
    for (const auto* p : sl) {
      slice << gp_number(x_of(ax, p->index[a]));
      for (std::size_t w = 0; w < nw; ++w) slice << " " << gp_number(p->speedup[w].value_or(NAN));
      for (std::size_t w = 0; w < nw; ++w) {
        slice << " " << gp_number(p->seconds[w] ? *p->seconds[w] * 1e6 : NAN);
        if (p->seconds[w]) times.push_back(*p->seconds[w] * 1e6);
      }
      slice << "\n";
    }
    for (const auto& [id, p] : d.points)
      for (std::size_t w = 0; w < nw; ++w)
        if (p.speedup[w]) {
          all << gp_number(x_of(ax, p.index[a])) << " " << w << " " << gp_number(*p.speedup[w])
              << "\n";
          any_speedup = true;
        }
    write_text(dir + "/" + base + ".dat", slice.str());
    write_text(dir + "/" + base + "_all.dat", all.str());

    std::ostringstream gp;
    const bool others = d.axes.size() > 1;
    gp << gp_preamble(base + ".png", 1100, any_speedup ? 900 : 500) << x_axis_setup(ax);
    gp << "set lmargin 12\n";  // the same for both panels, so their x axes line up
    std::string title = gp_dq(d.name) + ": speedup and time vs " + gp_dq(ax.name);
    if (others)
      title += "\\n(lines: the other parameters at the reference point; dots: every point)";
    gp << "set multiplot layout " << (any_speedup ? 2 : 1) << ",1 title \"" << title
       << "\" font ',13'\n";
    if (any_speedup) {
      gp << "set ylabel 'speedup vs reference point (x)'\n"
         << "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#606060'\n"
         << "plot ";
      for (std::size_t w = 0; w < nw; ++w) {
        if (others)
          gp << gp_str(base + "_all.dat") << " using 1:($2==" << w
             << "?$3:NaN) with points pt 7 ps 0.7 lc rgb '" << faded_color(w) << "' notitle, ";
        gp << gp_str(base + ".dat") << " using 1:" << 2 + w
           << " with linespoints lw 2 pt 7 ps 1.2 lc rgb '" << series_color(w) << "' title "
           << gp_str(d.workloads[w]) << (w + 1 < nw ? ", " : "\n");
      }
      gp << "unset arrow 1\n";
    }
    gp << "set ylabel 'time per workload (us)'\n";
    if (spans_decade(times)) gp << "set logscale y 10\n";
    gp << "plot ";
    for (std::size_t w = 0; w < nw; ++w)
      gp << gp_str(base + ".dat") << " using 1:" << 2 + nw + w
         << " with linespoints lw 2 pt 5 ps 1.0 lc rgb '" << series_color(w) << "' title "
         << gp_str(d.workloads[w]) << (w + 1 < nw ? ", " : "\n");
    gp << "unset multiplot\n";
    const std::string script = dir + "/" + base + ".gp";
    write_text(script, gp.str());
    out.push_back({base + ".png", script,
                   "Speedup over the reference point and time per workload against " + ax.name +
                       (others ? ", the other parameters held at the reference point" : "")});
  }
  return out;
}

PlotScript write_pareto_plot(const ReportData& d, const std::string& dir) {
  std::ostringstream all, front_dat;
  std::vector<double> xs;
  for (const auto& [id, p] : d.points)
    if (p.geomean_speedup && p.tc_area_cells) {
      all << gp_number(*p.tc_area_cells / 1e6) << " " << gp_number(*p.geomean_speedup) << "\n";
      xs.push_back(*p.tc_area_cells);
    }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.size() < 2)
    return {"", "",
            "No Pareto plot: every point has the same tensor-core area (vary a tensor_core or sm "
            "parameter or gpu.num_sms to trade speed against area)"};
  const auto front = d.pareto_front();
  for (const auto* p : front)
    front_dat << gp_number(*p->tc_area_cells / 1e6) << " " << gp_number(*p->geomean_speedup) << " p"
              << p->id << "\n";
  write_text(dir + "/pareto_all.dat", all.str());
  write_text(dir + "/pareto_front.dat", front_dat.str());
  std::ostringstream gp;
  gp << gp_preamble("pareto.png", 1000, 700) << "set title \"" << gp_dq(d.name)
     << ": Pareto front of speed against tensor-core area\\n"
     << "(up and to the left is better; labels are point ids, see summary.md)\" font ',13'\n"
     << "set xlabel 'tensor-core area: million Yosys generic cells over the GPU (docs/rtl.md)'\n"
     << "set ylabel 'speedup vs reference point (geomean over workloads)'\n"
     << "set key inside left top box opaque\n"
     << "set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.05\n";
  if (xs.back() / xs.front() >= 16) gp << "set logscale x 2\n";
  gp << "plot 'pareto_all.dat' using 1:2 with points pt 7 ps 1.0 lc rgb '#A0808080' title 'design "
        "points', "
     << "'pareto_front.dat' using 1:2 with linespoints lw 2 pt 7 ps 1.5 lc rgb '" << series_color(4)
     << "' title 'Pareto front', "
     << "'pareto_front.dat' using 1:2:3 with labels offset 0,1.2 font ',10' notitle\n";
  write_text(dir + "/pareto.gp", gp.str());
  return {"pareto.png", dir + "/pareto.gp",
          "Speed (geometric mean of speedups over the workloads) against the tensor cores' area "
          "(Yosys cells of dot units, 2:4 selection and operand paths)"};
}

PlotScript write_energy_plot(const ReportData& d, const std::string& dir) {
  std::ostringstream all, front_dat;
  std::vector<double> xs;
  for (const auto& [id, p] : d.points)
    if (p.geomean_speedup && p.total_joules) {
      all << gp_number(*p.total_joules) << " " << gp_number(*p.geomean_speedup) << "\n";
      xs.push_back(*p.total_joules);
    }
  if (xs.empty())
    return {"", "",
            "No energy plot: the runs had no power model (power.impl: none; the presets have "
            "one, docs/power.md)"};
  const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
  for (const auto* p : d.energy_front())
    front_dat << gp_number(*p->total_joules) << " " << gp_number(*p->geomean_speedup) << " p"
              << p->id << "\n";
  write_text(dir + "/energy_all.dat", all.str());
  write_text(dir + "/energy_front.dat", front_dat.str());
  std::ostringstream gp;
  gp << gp_preamble("energy.png", 1000, 700) << "set title \"" << gp_dq(d.name)
     << ": speed against energy\\n"
     << "(up and to the left is better; labels are point ids, see summary.md)\" font ',13'\n"
     << "set xlabel 'energy: joules of every workload together, at the settled clocks'\n"
     << "set ylabel 'speedup vs reference point (geomean over workloads)'\n"
     << "set key inside left top box opaque\n"
     << "set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.05\n";
  if (*hi / *lo >= 16) gp << "set logscale x 2\n";
  gp << "plot 'energy_all.dat' using 1:2 with points pt 7 ps 1.0 lc rgb '#A0808080' title 'design "
        "points', "
     << "'energy_front.dat' using 1:2 with linespoints lw 2 pt 7 ps 1.5 lc rgb '" << series_color(2)
     << "' title 'Pareto front', "
     << "'energy_front.dat' using 1:2:3 with labels offset 0,1.2 font ',10' notitle\n";
  write_text(dir + "/energy.gp", gp.str());
  return {"energy.png", dir + "/energy.gp",
          "Speed (geometric mean of speedups over the workloads) against energy (joules of all "
          "workloads)"};
}

PlotScript write_heatmap_plot(const ReportData& d, const std::string& dir) {
  if (d.axes.size() < 2) return {"", "", "No heatmap: the sweep varies fewer than two parameters"};
  const AxisInfo &ax = d.axes[0], &ay = d.axes[1];
  std::ostringstream dat;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* p : d.slice(0, 1)) {
    if (!p->geomean_speedup) continue;
    const double v = *p->geomean_speedup;
    lo = std::min(lo, v), hi = std::max(hi, v);
    dat << p->index[0] << " " << p->index[1] << " " << gp_number(v) << "\n";
  }
  if (!std::isfinite(lo))
    return {"", "", "No heatmap: no point of the two-parameter slice has results"};
  write_text(dir + "/heatmap.dat", dat.str());
  const double mid = (lo + hi) / 2;
  // Two decimals hide differences below 1%; show three when the whole map is that flat.
  const char* label_fmt = hi - lo < 0.05 ? "%.3f" : "%.2f";
  auto tics = [](const AxisInfo& a) {
    std::string s = "(";
    for (std::size_t v = 0; v < a.labels.size(); ++v)
      s += (v ? ", " : "") + gp_str(a.labels[v]) + " " + std::to_string(v);
    return s + ")";
  };
  std::ostringstream gp;
  const bool labels = ax.labels.size() <= 16 && ay.labels.size() <= 24;
  gp << gp_preamble("heatmap.png", 1000, 750) << "set title \"" << gp_dq(d.name)
     << ": speedup vs reference point (geomean over workloads)"
     << (d.axes.size() > 2 ? "\\nother parameters at the reference point" : "") << "\" font ',13'\n"
     << "set xlabel " << gp_str(axis_label(ax)) << "\nset ylabel " << gp_str(axis_label(ay)) << "\n"
     << "set xtics " << tics(ax) << "\nset ytics " << tics(ay) << "\n"
     << "set xrange [-0.5:" << ax.labels.size() - 0.5
     << "]\nset yrange [-0.5:" << ay.labels.size() - 0.5 << "]\n"
     << "unset grid\nunset key\nset tics out nomirror\n"
     << "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')\n"
     << "set cbrange [" << gp_number(lo) << ":" << gp_number(hi > lo ? hi : lo * 1.001 + 1e-9)
     << "]\n"
     << "set cblabel 'speedup (x)'\n"
     << "plot 'heatmap.dat' using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc "
        "palette";
  if (labels)
    gp << ", '' using 1:2:($3<" << gp_number(mid) << "?sprintf('" << label_fmt
       << "',$3):'') with labels tc rgb 'white' font ',10'"
       << ", '' using 1:2:($3>=" << gp_number(mid) << "?sprintf('" << label_fmt
       << "',$3):'') with labels tc rgb 'black' font ',10'";
  gp << "\n";
  write_text(dir + "/heatmap.gp", gp.str());
  return {"heatmap.png", dir + "/heatmap.gp",
          "Speedup (geomean over workloads) over " + ax.name + " and " + ay.name +
              (d.axes.size() > 2 ? ", the other parameters at the reference point" : "")};
}

}  // namespace stcsim::sweep
