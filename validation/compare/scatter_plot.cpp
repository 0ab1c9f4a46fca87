#include "validation/compare/scatter_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "sim/core/atomic_write.h"
#include "sim/sweep/gnuplot_script.h"

namespace stcsim::validation {

namespace {
// Point groups, one plot style each.
int group_of(const MeasuredGemm& g) {
  if (g.kernel == "stcsim_dense") return 0;
  if (g.kernel == "stcsim_sp24") return 1;
  if (g.ours()) return 4;  // BSR, CSR
  return g.sparsity == "dense" ? 2 : 3;
}
}  // namespace

std::string write_scatter_plot(const ValidationReport& r, const std::string& dir) {
  double lo = 1e300, hi = 0;  // one range for both axes, so y = x is the diagonal
  {
    std::ostringstream dat;  // written whole, atomically, at the end of this block
    dat << "# measured_us predicted_us group(0 stcsim_dense, 1 stcsim_sp24, 2 vendor/PyTorch "
           "dense, 3 "
           "vendor/PyTorch sparse, 4 stcsim_bsr/stcsim_csr)\n";
    for (const auto& row : r.rows)
      if (row.simulated) {
        dat << row.measured.time_us << " " << row.predicted_us() << " " << group_of(row.measured)
            << "\n";
        lo = std::min({lo, row.measured.time_us, row.predicted_us()});
        hi = std::max({hi, row.measured.time_us, row.predicted_us()});
      }
    write_atomically(dir + "/scatter.dat", dat.str());
  }
  {
    // The title states the agreement of whichever groups there are.
    std::string title = std::string(r.synthetic ? "SYNTHETIC DATA - " : "") +
                        sweep::gp_dq(r.device) + " simulated as " + sweep::gp_dq(r.arch) + "\\n";
    char line[160];
    if (r.ours.n > 0) {
      std::snprintf(line, sizeof line, "our kernels: MAPE %.1f%% over %d GEMMs",
                    r.ours.mape_percent, r.ours.n);
      title += line;
    }
    if (r.vendor.n > 0) {
      std::snprintf(line, sizeof line, "%svendor libraries: MAPE %.1f%% over %d GEMMs",
                    r.ours.n > 0 ? "; " : "", r.vendor.mape_percent, r.vendor.n);
      title += line;
    }
    // Ticks at 1, 2 and 5 of every decade in range, labelled, so a reader can read a
    // time off the log axes (gnuplot's default labels only the decades).
    const double x0 = lo / 1.25, x1 = hi * 1.25;
    std::string tics;
    for (double decade = std::pow(10.0, std::floor(std::log10(x0))); decade <= x1; decade *= 10)
      for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= x0 && m * decade <= x1) {
          char t[32];
          std::snprintf(t, sizeof t, "\"%g\" %g", m * decade, m * decade);
          tics += (tics.empty() ? "" : ", ") + std::string(t);
        }
    // Legend entries only for the groups present.
    bool present[5] = {};
    for (const auto& row : r.rows)
      if (row.simulated) present[group_of(row.measured)] = true;
    static const char* const kStyle[5] = {"pt 7 ps 1.2 title 'stcsim\\_dense'",
                                          "pt 5 ps 1.2 title 'stcsim\\_sp24 (2:4)'",
                                          "pt 6 ps 1.4 title 'cuBLAS, cuBLASLt, F.linear (dense)'",
                                          "pt 4 ps 1.4 title 'cuSPARSELt, torch sparse (2:4)'",
                                          "pt 9 ps 1.2 title 'stcsim\\_bsr, stcsim\\_csr'"};
    std::ostringstream gp;
    gp << "set terminal pngcairo size 860,860\n"
          "set size square\n"
          "set xrange ["
       << x0 << ":" << x1 << "]\nset yrange [" << x0 << ":" << x1 << "]\n"
       << sweep::gp_output("scatter.png") << "set logscale xy\n";
    if (!tics.empty()) gp << "set xtics (" << tics << ")\nset ytics (" << tics << ")\n";
    gp << "set mxtics 10\nset mytics 10\n"
          "set grid xtics ytics\n"
          "set key top left\n"
          "set xlabel 'measured time per GEMM (us, log scale)'\n"
          "set ylabel 'predicted time per GEMM (us, log scale)'\n"
          "set title \""
       << title
       << "\" noenhanced\n"
          "grp(g, v) = ($3 == g) ? v : 1/0\n"
          "plot ";
    for (int g = 0; g < 5; ++g)
      if (present[g])
        gp << "'scatter.dat' using 1:(grp(" << g << ", $2)) with points " << kStyle[g]
           << ", \\\n     ";
    gp << "x with lines lc rgb 'black' title 'predicted = measured', \\\n"
          "     1.15 * x with lines dt 2 lc rgb 'gray' title '+-15%', \\\n"
          "     0.85 * x with lines dt 2 lc rgb 'gray' notitle\n";
    write_atomically(dir + "/scatter.gp", gp.str());
  }
  // gnuplot as `stcsim report` runs it (sim/sweep), in `dir` so the script's relative
  // names resolve there.
  const std::string gnuplot = sweep::find_gnuplot();
  if (gnuplot.empty()) return "gnuplot not found (install the Debian package gnuplot-nox)";
  return sweep::run_gnuplot(gnuplot, dir + "/scatter.gp", "scatter.png");
}

}  // namespace stcsim::validation
