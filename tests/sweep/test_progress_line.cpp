// The progress line of sweeps, runs, crossover and validate (sim/sweep/progress_line.h):
// what a log gets, the counts each command shows, and the silence of quick commands.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include "sim/sweep/progress_line.h"

using stcsim::sweep::ProgressLine;
using stcsim::sweep::ProgressStyle;

namespace {
int count_lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }
}  // namespace

TEST_CASE("progress_line_in_a_log_prints_each_tenth_and_the_end_once", "[sweep][progress]") {
  std::ostringstream out;
  ProgressLine p(out, false, 20, 0, 0);
  for (int i = 1; i <= 20; ++i) p.update(i, 0, i < 20 ? 1 : 0);
  p.finish(20, 0);
  // Deciles 0 (the first update), 1, ..., 10: one line each; the end, the same line as
  // the last update, is not repeated.
  CHECK(count_lines(out.str()) == 11);
  CHECK_THAT(out.str(), !Catch::Contains("19/20 points"));
  CHECK_THAT(out.str(), Catch::Contains("18/20 points, 0 failed, 1 running") &&
                            Catch::EndsWith("20/20 points, 0 failed, 0 running, elapsed 0:00, "
                                            "ETA 0:00\n"));
}

TEST_CASE("progress_line_counts_gemms_without_sweep_fields", "[sweep][progress]") {
  std::ostringstream out;
  ProgressLine p(out, false, 0, 0, 0, ProgressStyle{"GEMMs", false, 0});
  p.set_total(4);  // a run learns its total (twins included) once it starts
  p.update(1, 0, 0);
  p.update(4, 0, 0);
  p.finish(4, 0);
  CHECK_THAT(out.str(), Catch::Contains("1/4 GEMMs, elapsed") &&
                            Catch::Contains("[########################] 4/4 GEMMs, elapsed"));
  CHECK_THAT(out.str(), !Catch::Contains("failed") && !Catch::Contains("running"));
}

TEST_CASE("progress_line_quick_commands_print_nothing", "[sweep][progress]") {
  // With a silent interval a command that ends within it leaves no line, on a terminal
  // or in a log; one that runs past it shows its progress and its end.
  for (bool tty : {false, true}) {
    std::ostringstream out;
    ProgressLine p(out, tty, 3, 0, 0, ProgressStyle{"GEMMs", false, 60.0});
    for (int i = 1; i <= 3; ++i) p.update(i, 0, 0);
    p.finish(3, 0);
    CHECK(out.str().empty());
  }
  std::ostringstream out;
  ProgressLine p(out, false, 3, 0, 0, ProgressStyle{"GEMMs", false, 0.05});
  p.update(1, 0, 0);
  CHECK(out.str().empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  p.update(2, 0, 0);
  p.finish(3, 0);
  CHECK_THAT(out.str(), Catch::Contains("2/3 GEMMs") && Catch::Contains("3/3 GEMMs"));
}

TEST_CASE("progress_line_on_a_terminal_redraws_one_line", "[sweep][progress]") {
  std::ostringstream out;
  ProgressLine p(out, true, 2, 0, 0, ProgressStyle{"simulations", false, 0});
  p.update(1, 0, 0);
  p.finish(2, 0);
  const std::string s = out.str();
  CHECK(s.rfind("\r\033[K", 0) == 0);  // each draw clears the line first
  CHECK(count_lines(s) == 1);          // and only the end leaves a newline
  CHECK_THAT(s, Catch::EndsWith("2/2 simulations, elapsed 0:00, ETA 0:00\n"));
}
