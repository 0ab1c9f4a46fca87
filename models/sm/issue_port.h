// A sub-core scheduler's issue port for the instruction runs the model places on it (a
// mainloop's k-tile prelude, a rolled k-sub loop's top: KernelMapping::loop): a run of
// `cycles` takes the earliest idle stretch from its ready cycle on. Not first-come-first-
// served like Timeline: a k-tile is computed at its barrier, so a warp's later k-subs
// reserve the port ahead of time, and a co-resident CTA's warp that reaches its barrier
// before then must still find the port idle in between, as the hardware's scheduler would.
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "models/common/cycles.h"

namespace stcsim {

class IssuePort {
 public:
  // Place a run of `cycles` at the earliest idle stretch starting at or after `ready`;
  // returns its start.
  Cycle reserve(Cycle ready, Cycle cycles) {
    Cycle start = ready;
    auto it = busy_.begin();
    for (; it != busy_.end(); ++it) {
      if (it->second <= start) continue;       // ends before the run could start
      if (it->first >= start + cycles) break;  // the run fits before this one
      start = std::max(start, it->second);     // overlaps: try after it
    }
    busy_.insert(it, {start, start + cycles});
    busy_cycles_ += cycles;
    return start;
  }
  // No later run is ready before `t` (the SM's simulated time only grows): stretches that
  // ended by then are dropped.
  void forget_before(Cycle t) {
    auto end = std::find_if(busy_.begin(), busy_.end(),
                            [t](const std::pair<Cycle, Cycle>& b) { return b.second > t; });
    busy_.erase(busy_.begin(), end);
  }
  Cycle free_at() const { return busy_.empty() ? 0 : busy_.back().second; }
  // The reserved stretches not yet forgotten, [start, end) in order (for tests and traces).
  const std::vector<std::pair<Cycle, Cycle>>& stretches() const { return busy_; }
  Cycle busy_cycles() const { return busy_cycles_; }

 private:
  std::vector<std::pair<Cycle, Cycle>> busy_;  // [start, end), disjoint, in order
  Cycle busy_cycles_ = 0;
};

}  // namespace stcsim
