#include "sim/sweep/progress_line.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace stcsim::sweep {

using Clock = std::chrono::steady_clock;

std::string format_duration(double s) {
  const long t = std::lround(std::max(0.0, s));
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  return buf;
}

ProgressLine::ProgressLine(std::ostream& out, bool tty, std::int64_t total, std::int64_t already,
                           std::int64_t failed_before, ProgressStyle style)
    : out_(out),
      tty_(tty),
      style_(std::move(style)),
      total_(total),
      already_(already),
      failed_before_(failed_before),
      start_(Clock::now()),
      last_print_(start_) {}

std::string ProgressLine::render(std::int64_t done_now, std::int64_t failed_now,
                                 int running) const {
  const std::int64_t done = already_ + done_now;
  const double frac = total_ > 0 ? double(done) / double(total_) : 1.0;
  const int width = 24, filled = int(frac * width);
  std::string bar = "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  // ETA from this run's own pace: points skipped on resume took no time now.
  std::string eta = "?";
  if (done_now > 0) eta = format_duration(elapsed / double(done_now) * double(total_ - done));
  if (done == total_) eta = "0:00";
  char counts[96] = "";
  if (style_.failures_and_children)
    std::snprintf(counts, sizeof counts, ", %lld failed, %d running",
                  static_cast<long long>(failed_before_ + failed_now), running);
  char buf[320];
  std::snprintf(buf, sizeof buf, "%s %lld/%lld %s%s, elapsed %s, ETA %s", bar.c_str(),
                static_cast<long long>(done), static_cast<long long>(total_), style_.unit.c_str(),
                counts, format_duration(elapsed).c_str(), eta.c_str());
  return buf;
}

void ProgressLine::update(std::int64_t done_now, std::int64_t failed_now, int running) {
  const auto now = Clock::now();
  if (now - start_ < std::chrono::duration<double>(style_.silent_seconds)) return;
  shown_ = true;
  if (tty_) {
    if (now - last_print_ < std::chrono::milliseconds(100)) return;
    out_ << "\r\033[K" << render(done_now, failed_now, running) << std::flush;
    last_print_ = now;
    return;
  }
  const int decile = total_ > 0 ? int(10 * (already_ + done_now) / total_) : 10;
  if (decile != last_decile_ || now - last_print_ > std::chrono::seconds(30)) {
    last_line_ = render(done_now, failed_now, running);
    out_ << last_line_ << "\n" << std::flush;
    last_decile_ = decile;
    last_print_ = now;
  }
}

void ProgressLine::finish(std::int64_t done_now, std::int64_t failed_now) {
  if (!shown_ &&
      std::chrono::duration<double>(Clock::now() - start_).count() < style_.silent_seconds)
    return;  // a quick command leaves no progress behind
  const std::string line = render(done_now, failed_now, 0);
  if (tty_)
    out_ << "\r\033[K";
  else if (line == last_line_)
    return;  // the log already ends with it
  out_ << line << "\n" << std::flush;
}

}  // namespace stcsim::sweep
