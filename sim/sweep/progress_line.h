// Progress of a long command (a sweep's points, a run's GEMMs, crossover's and validate's
// simulations): a bar with done/total, for sweeps failures and running children, and the
// estimated time left. On a terminal it redraws one line; in a log (Slurm, CI) it prints
// a line every 10% or 30 s so the log stays short but shows the command is alive.
#pragma once
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace stcsim::sweep {

// What the line counts and when it first shows.
struct ProgressStyle {
  std::string unit = "points";        // "12/48 points"
  bool failures_and_children = true;  // ", 0 failed, 2 running" (sweeps)
  // Nothing is printed before this much time has passed, so a command that ends quickly
  // leaves no progress behind (0: from the first update, as sweeps do).
  double silent_seconds = 0;
};

class ProgressLine {
 public:
  // `total` points in this run's slice, of which `already` were finished before it.
  ProgressLine(std::ostream& out, bool tty, std::int64_t total, std::int64_t already,
               std::int64_t failed_before, ProgressStyle style = {});
  void update(std::int64_t done_now, std::int64_t failed_now, int running);
  // For a command that learns its total once it starts (a run's GEMMs with their twins).
  void set_total(std::int64_t total) { total_ = total; }
  void finish(std::int64_t done_now, std::int64_t failed_now);

 private:
  std::string render(std::int64_t done_now, std::int64_t failed_now, int running) const;
  std::ostream& out_;
  bool tty_;
  ProgressStyle style_;
  bool shown_ = false;  // anything printed yet
  std::int64_t total_, already_, failed_before_;
  std::chrono::steady_clock::time_point start_, last_print_;
  int last_decile_ = -1;
  std::string last_line_;
};

// "1:02:03" or "4:05".
std::string format_duration(double seconds);

}  // namespace stcsim::sweep
