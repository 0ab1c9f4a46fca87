// A CTA's memory requests in flight, a fixed number of slots: the microbenchmark
// programs keep as many loads or copies outstanding as their CUDA loops can (an unrolled
// loop's independent loads, cp.async groups before a wait, copies per mbarrier). Slots
// stay put while the memory system times them (it holds pointers to them).
#pragma once
#include <algorithm>
#include <vector>

#include "models/sm/sm_context.h"

namespace stcsim {

class RequestWindow {
 public:
  explicit RequestWindow(int slots) : slot_(std::size_t(slots)), busy_(std::size_t(slots), false) {}
  // A free slot, or null when all are in flight (after retire(now)).
  MemRequest* free_slot() {
    for (std::size_t i = 0; i < slot_.size(); ++i)
      if (!busy_[i]) {
        busy_[i] = true;
        slot_[i].reset();
        return &slot_[i];
      }
    return nullptr;
  }
  // Free the slots whose data has landed by `now`; the latest landing seen so far.
  Cycle retire(Cycle now) {
    for (std::size_t i = 0; i < slot_.size(); ++i)
      if (busy_[i] && reached(slot_[i].done, now)) {
        busy_[i] = false;
        last_ = std::max(last_, slot_[i].done);
      }
    return last_;
  }
  // The earliest landing among the slots in flight (kPending when none).
  Cycle next_landing() const {
    Cycle t = kPending;
    for (std::size_t i = 0; i < slot_.size(); ++i)
      if (busy_[i]) t = std::min(t, slot_[i].done);
    return t;
  }
  bool has_free() const { return std::find(busy_.begin(), busy_.end(), false) != busy_.end(); }
  bool empty() const {
    return std::none_of(busy_.begin(), busy_.end(), [](bool b) { return b; });
  }

 private:
  std::vector<MemRequest> slot_;
  std::vector<bool> busy_;
  Cycle last_ = 0;
};

}  // namespace stcsim
