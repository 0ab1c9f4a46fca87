// summary.md of `stcsim report`: what was swept, the best points overall and per
// workload, the Pareto front, what limits the best designs, the failures, the plots.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/report_data.h"
#include "sim/sweep/report_plots.h"

namespace stcsim::sweep {

std::string summary_markdown(const ReportData& d, const std::vector<PlotScript>& plots,
                             const std::vector<std::string>& failures);

}  // namespace stcsim::sweep
