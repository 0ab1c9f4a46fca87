// `stcsim report DIR`: reads a sweep folder's plan and tidy table and writes the plots
// (PNG through gnuplot) and summary.md into a report folder.
#pragma once
#include <string>
#include <vector>

namespace stcsim::sweep {

struct ReportOutcome {
  std::vector<std::string> pngs;      // written
  std::vector<std::string> problems;  // gnuplot missing or failing, per plot
};

ReportOutcome write_report(const std::string& sweep_dir, const std::string& report_dir);

}  // namespace stcsim::sweep
