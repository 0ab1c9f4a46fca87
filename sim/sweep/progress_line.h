// The sweep's progress: a bar with done/total, failures, running children and the
// estimated time left. On a terminal it redraws one line; in a log (Slurm, CI) it prints
// a line every 10% or 30 s so the log stays short but shows the sweep is alive.
#pragma once
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace stcsim::sweep {

class ProgressLine {
 public:
  // `total` points in this run's slice, of which `already` were finished before it.
  ProgressLine(std::ostream& out, bool tty, std::int64_t total, std::int64_t already,
               std::int64_t failed_before);
  void update(std::int64_t done_now, std::int64_t failed_now, int running);
  void finish(std::int64_t done_now, std::int64_t failed_now);

 private:
  std::string render(std::int64_t done_now, std::int64_t failed_now, int running) const;
  std::ostream& out_;
  bool tty_;
  std::int64_t total_, already_, failed_before_;
  std::chrono::steady_clock::time_point start_, last_print_;
  int last_decile_ = -1;
  std::string last_line_;
};

// "1:02:03" or "4:05".
std::string format_duration(double seconds);

}  // namespace stcsim::sweep
