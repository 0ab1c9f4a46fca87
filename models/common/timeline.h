// A resource that serves requests first-come-first-served at a fixed rate: the
// building block of every bandwidth-limited part of the model (a tensor-core pipe
// slot, a shared-memory port, an L2 slice, a DRAM channel, an SM's L2 link).
// Requests must be made in non-decreasing order of simulated time, which SystemC
// guarantees when they are made by processes at their current time.
#pragma once
#include <algorithm>

#include "models/common/cycles.h"

namespace stcsim {

class Timeline {
 public:
  // Occupy the resource for `duration` cycles starting no earlier than `ready`.
  // Returns the start cycle.
  Cycle reserve(Cycle ready, Cycle duration) {
    const Cycle start = std::max(ready, free_at_);
    free_at_ = start + duration;
    busy_ += duration;
    return start;
  }
  Cycle free_at() const { return free_at_; }
  Cycle busy_cycles() const { return busy_; }
  void reset_busy() { busy_ = 0; }

 private:
  Cycle free_at_ = 0;
  Cycle busy_ = 0;
};

}  // namespace stcsim
