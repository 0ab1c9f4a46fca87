// Steady-state detection for `stcsim run --mode steady` (docs/simulator_speed.md): a
// kernel of uniform CTAs settles, after its first waves, into a pattern that repeats every
// period of p waves: each CTA is handed out exactly L cycles after the CTA p waves before
// it. Once the last two periods' dispatches all sit L after their counterparts, the rest of
// the grid is that period again, so the run can stop handing out CTAs at a cut that
// leaves a whole number k of periods, and the op's time and counters are the truncated
// run's plus k periods' worth. The cut keeps a last partial wave of the grid's own size,
// so the truncated run ends with a tail like the full run's (of other tiles: an edge
// tile or a narrower last swizzle group at the grid's end is not the one simulated).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/common/cycles.h"

namespace stcsim {

struct SteadyStateOptions {
  int warmup_waves = 2;      // dispatches of the first waves are never compared (>= 1)
  int max_period_waves = 4;  // periods of 1 .. this many waves are tried
  double tolerance = 0.005;  // each dispatch within this fraction of a wave (L / p)
};

// Where to stop a run that has settled: hand out CTAs [0, stop_at) only, then add
// `periods` x (`period_cycles`, the counters' growth over the period ending at dispatch
// `mark`, which began at dispatch mark - period_ctas).
struct SteadyCut {
  std::size_t stop_at = 0;
  std::size_t period_ctas = 0;
  double period_cycles = 0;
  std::int64_t periods = 0;
  std::size_t mark = 0;  // the index of the dispatch the period was detected at
};

class SteadyStateDetector {
 public:
  // `ctas`: the grid; `slots`: CTAs resident at once over the GPU (a wave).
  SteadyStateDetector(std::size_t ctas, std::size_t slots, SteadyStateOptions o = {});

  // CTA `index` (in launch order, each once, in order) was handed out at cycle `t`.
  // Returns the cut the first time a period is found with a whole period left to skip.
  // `repeats(cut)`, when given, says whether what else the caller watches (its counters)
  // also grew alike over the cut's last two periods; a period it refuses is not taken,
  // and a longer one is tried.
  std::optional<SteadyCut> on_dispatch(std::size_t index, Cycle t,
                                       const std::function<bool(const SteadyCut&)>& repeats = {});
  // Whether `index` closes a wave (the caller records its counters there: a cut's
  // period starts and ends at such dispatches).
  bool wave_boundary(std::size_t index) const { return (index + 1) % slots_ == 0; }
  // Why the run was not cut, once it has ended without one.
  std::string why_not() const;
  bool decided() const { return decided_; }
  int warmup_waves() const { return o_.warmup_waves; }

 private:
  std::optional<SteadyCut> try_period(std::size_t j, std::size_t p) const;
  std::size_t ctas_, slots_;
  SteadyStateOptions o_;
  std::vector<Cycle> times_;
  bool decided_ = false;
  bool found_late_ = false;  // a period was found with less than a period left
  bool refused_ = false;     // dispatches repeated, but the caller's counters did not
};

}  // namespace stcsim
