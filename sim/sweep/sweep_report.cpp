#include "sim/sweep/sweep_report.h"

#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/sweep/gnuplot_script.h"
#include "sim/sweep/point_record.h"
#include "sim/sweep/report_data.h"
#include "sim/sweep/report_plots.h"
#include "sim/sweep/report_summary.h"
#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_dir.h"

namespace stcsim::sweep {

namespace fs = std::filesystem;

ReportOutcome write_report(const std::string& sweep_dir, const std::string& report_dir) {
  const auto plan = read_plan(sweep_dir);
  // Rebuild the table from the points: it is cheap and covers a folder whose sweep was
  // killed before it wrote results.json.
  SweepDir dir(sweep_dir);
  const auto table = build_table(plan, dir.point_files());
  const ReportData d = load_report_data(plan, table);
  std::error_code ec;
  fs::create_directories(report_dir, ec);
  if (ec) throw InputError(report_dir + ": cannot create: " + ec.message());

  std::vector<PlotScript> plots = write_axis_plots(d, report_dir);
  plots.push_back(write_pareto_plot(d, report_dir));
  plots.push_back(write_energy_plot(d, report_dir));
  plots.push_back(write_heatmap_plot(d, report_dir));

  ReportOutcome out;
  const std::string gnuplot = find_gnuplot();
  for (auto& p : plots) {
    if (p.png.empty()) continue;
    if (gnuplot.empty()) {
      out.problems.push_back(
          p.png + ": gnuplot not found (Debian: apt-get install gnuplot-nox); its script is " +
          p.script);
      continue;
    }
    const std::string err = run_gnuplot(gnuplot, p.script, p.png);
    if (err.empty())
      out.pngs.push_back((fs::path(report_dir) / p.png).string());
    else
      out.problems.push_back(err);
  }
  std::vector<std::string> failures;
  for (const auto& row : table.at("rows")) {
    if (row.at("status") == "ok") continue;
    std::string err = row.at("error").get<std::string>().substr(0, 300);
    for (char& c : err) c = c == '\n' || c == '|' ? ' ' : c;  // one markdown list line
    failures.push_back("p" + std::to_string(row.at("point").get<long long>()) + " " +
                       row.at("workload").get<std::string>() + ": " + err);
  }
  write_atomically(report_dir + "/summary.md", summary_markdown(d, plots, failures));
  return out;
}

}  // namespace stcsim::sweep
