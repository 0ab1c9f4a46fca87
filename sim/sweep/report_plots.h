// The plots of `stcsim report`, each a gnuplot script plus its data files in the report
// folder: speedup and time against each varied parameter, the Pareto fronts of speed
// against tensor-core width and against energy, and a heatmap over the first two
// parameters.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/report_data.h"

namespace stcsim::sweep {

struct PlotScript {
  std::string png;     // file name inside the report folder
  std::string script;  // path of the .gp file
  std::string caption;
};

// One per axis: speedup over the reference (top) and time (bottom) against its values.
std::vector<PlotScript> write_axis_plots(const ReportData& d, const std::string& dir);
// Empty `png` with the reason in `caption` when there is nothing to trade off.
PlotScript write_pareto_plot(const ReportData& d, const std::string& dir);
PlotScript write_heatmap_plot(const ReportData& d, const std::string& dir);
// Speed against energy (the runs' joules over the workloads); empty `png` with the
// reason when the runs had no power model.
PlotScript write_energy_plot(const ReportData& d, const std::string& dir);

}  // namespace stcsim::sweep
