#include "validation/compare/scatter_plot.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

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
    char title[320];
    std::snprintf(title, sizeof title,
                  "%s%s simulated as %s\\nour kernels: MAPE %.1f%% over %d GEMMs",
                  r.synthetic ? "SYNTHETIC DATA - " : "", r.device.c_str(), r.arch.c_str(),
                  r.ours.mape_percent, r.ours.n);
    std::ostringstream gp;
    gp << "set terminal pngcairo size 860,860\n"
          "set size square\n"
          "set xrange ["
       << lo / 1.25 << ":" << hi * 1.25
       << "]\n"
          "set yrange ["
       << lo / 1.25 << ":" << hi * 1.25 << "]\n"
       << sweep::gp_output("scatter.png")
       << "set logscale xy\n"
          "set grid\n"
          "set key top left\n"
          "set xlabel 'measured time (us)'\n"
          "set ylabel 'predicted time (us)'\n"
          "set title \""
       << title
       << "\" noenhanced\n"
          "grp(g, v) = ($3 == g) ? v : 1/0\n"
          "plot 'scatter.dat' using 1:(grp(0, $2)) with points pt 7 ps 1.2 title 'stcsim\\_dense', "
          "\\\n"
          "     '' using 1:(grp(1, $2)) with points pt 5 ps 1.2 title 'stcsim\\_sp24 (2:4)', \\\n"
          "     '' using 1:(grp(2, $2)) with points pt 6 ps 1.2 title 'cuBLAS, cuBLASLt, "
          "F.linear', \\\n"
          "     '' using 1:(grp(3, $2)) with points pt 4 ps 1.2 title 'cuSPARSELt, torch sparse', "
          "\\\n"
          "     '' using 1:(grp(4, $2)) with points pt 9 ps 1.2 title 'stcsim\\_bsr, "
          "stcsim\\_csr', \\\n"
          "     x with lines lc rgb 'black' title 'predicted = measured', \\\n"
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
