#include "models/sm/steady_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stcsim {

SteadyStateDetector::SteadyStateDetector(std::size_t ctas, std::size_t slots, SteadyStateOptions o)
    : ctas_(ctas), slots_(std::max<std::size_t>(1, slots)), o_(o) {
  // The counters' mean is taken from the end of the warm-up (Gpu::run_kernel_steady): at
  // least one wave, whose dispatches all come at the launch.
  o_.warmup_waves = std::max(1, o_.warmup_waves);
  o_.max_period_waves = std::max(1, o_.max_period_waves);
  times_.reserve(ctas);
}

std::optional<SteadyCut> SteadyStateDetector::try_period(std::size_t j, std::size_t p) const {
  const std::size_t period = p * slots_;
  const std::size_t warm = std::size_t(o_.warmup_waves) * slots_;
  // The last two periods' dispatches, each against the one a period before it, all after
  // the warm-up waves: every one the same L after its counterpart, in both periods.
  if (j + 1 < warm + 3 * period) return std::nullopt;
  auto spread = [&](std::size_t last, double& mean) {  // over the period ending at `last`
    double sum = 0;
    Cycle lo = 0, hi = 0;
    for (std::size_t i = last + 1 - period; i <= last; ++i) {
      const Cycle d = times_[i] - times_[i - period];
      lo = i == last + 1 - period ? d : std::min(lo, d);
      hi = std::max(hi, d);
      sum += double(d);
    }
    mean = sum / double(period);
    return double(hi - lo);
  };
  // The tolerance is a fraction of a wave's length, so a longer period is held as tight.
  double mean = 0, before = 0;
  const double last = spread(j, mean);
  const double tol = o_.tolerance * mean / double(p);
  if (mean <= 0 || last > tol) return std::nullopt;
  if (spread(j - period, before) > tol || std::abs(mean - before) > tol) return std::nullopt;
  SteadyCut c;
  c.period_ctas = period;
  c.period_cycles = mean;
  c.periods = std::int64_t((ctas_ - (j + 1)) / period);
  c.stop_at = ctas_ - std::size_t(c.periods) * period;
  c.mark = j;
  return c;
}

std::optional<SteadyCut> SteadyStateDetector::on_dispatch(
    std::size_t index, Cycle t, const std::function<bool(const SteadyCut&)>& repeats) {
  times_.push_back(t);
  if (decided_ || !wave_boundary(index)) return std::nullopt;
  for (int p = 1; p <= o_.max_period_waves; ++p) {
    std::optional<SteadyCut> c = try_period(index, std::size_t(p));
    if (!c) continue;
    if (repeats && !repeats(*c)) {
      refused_ = true;
      continue;
    }
    decided_ = true;  // the first period found decides, cut or not
    if (c->periods >= 1) return c;
    found_late_ = true;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string SteadyStateDetector::why_not() const {
  const std::size_t waves = (ctas_ + slots_ - 1) / slots_;
  if (ctas_ <= slots_) return "one wave: nothing can repeat (a persistent kernel, or a small GEMM)";
  if (ctas_ < std::size_t(o_.warmup_waves + 4) * slots_)
    return "too few waves to find a period (" + std::to_string(waves) + ")";
  if (found_late_) return "the period settled with less than a period of the grid left";
  if (refused_)
    return "the dispatches repeated but the counters (pipes, L2, DRAM) did not grow alike "
           "over two periods within 1%";
  char tol[32];
  std::snprintf(tol, sizeof tol, "%.1f%%", o_.tolerance * 100);
  return std::string("no stable period (the dispatches did not repeat within ") + tol +
         " of a wave over two periods of up to " + std::to_string(o_.max_period_waves) + " waves)";
}

}  // namespace stcsim
