// A fixed-rate resource whose reservations may be made out of time order: it keeps the
// stretches it is busy, so a request that is ready before the last reservation ends can
// take an idle stretch in between. A sub-core's mma pipe needs it: a CTA's k-tile of mma
// is placed at its barrier, ahead of time, and a co-resident CTA that reaches its own
// barrier later in simulated time may still have instructions ready in the gaps (its
// warps issue whenever the pipe is free, as the hardware's scheduler lets them).
// append() keeps Timeline's first-come-first-served rule for users that never fill gaps.
// A sub-core's issue port (models/sm/issue_port.h) is one too.
#pragma once
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "models/common/cycles.h"

namespace stcsim {

class GapTimeline {
 public:
  // Occupy the resource for `duration` cycles in the earliest idle stretch that starts at
  // or after `ready`; returns the start. `hint` (in/out, start at 0) is where a caller
  // placing a series of non-decreasing ready cycles left off, so the series costs one walk
  // over the stretches, not one per request.
  Cycle fill(Cycle ready, Cycle duration, std::size_t& hint) {
    busy_cycles_ += duration;
    Cycle start = std::max(ready, horizon_);
    // The common case: from within or after the last stretch (or the resource was empty):
    // no idle stretch to fill, after it.
    if (busy_.empty() || start >= busy_.back().first)
      return append_at(std::max(start, free_at()), duration);
    std::size_t i = std::min(hint, busy_.size() - 1);
    while (i > 0 && busy_[i - 1].second > start) --i;  // a hint from a later ready cycle
    for (; i < busy_.size(); ++i) {
      if (busy_[i].second <= start) continue;         // ends before the request could start
      if (busy_[i].first >= start + duration) break;  // fits in the gap before stretch i
      start = busy_[i].second;                        // overlaps it: try after it
    }
    hint = i;
    if (i == busy_.size()) return append_at(start, duration);
    // [start, start + duration) lies in the gap before stretch i: merge with what it touches.
    const Cycle end = start + duration;
    const bool joins_prev = i > 0 && busy_[i - 1].second == start;
    const bool joins_next = busy_[i].first == end;
    if (joins_prev && joins_next) {
      busy_[i - 1].second = busy_[i].second;
      busy_.erase(busy_.begin() + std::ptrdiff_t(i));
      hint = i - 1;
    } else if (joins_prev) {
      busy_[i - 1].second = end;
      hint = i - 1;
    } else if (joins_next) {
      busy_[i].first = start;
    } else {
      busy_.insert(busy_.begin() + std::ptrdiff_t(i), {start, end});
    }
    return start;
  }
  // A series in program order: request j ready at ready[j], lasting dur(j), each at or
  // after the one before it: start[j] is where it went, free_before[j] what free_at said
  // just before. The same placements as fill one request at a time; once a request lands
  // after the last stretch every later one does too, and those are placed on local copies
  // (the hot loop of a GEMM's mma: first-come-first-served cost where nothing is to fill).
  template <class Duration>
  void fill_series(const Cycle* ready, std::size_t n, Duration dur, Cycle* start,
                   Cycle* free_before) {
    std::size_t j = 0, hint = 0;
    Cycle floor = 0;
    for (; j < n; ++j) {
      const Cycle r = std::max({ready[j], floor, horizon_});
      if (busy_.empty() || r >= busy_.back().first) break;
      free_before[j] = free_at();
      floor = start[j] = fill(r, dur(j), hint);
    }
    if (j == n) return;
    bool open = !busy_.empty();  // [first, end): the last stretch, taken off the vector
    Cycle first = open ? busy_.back().first : 0, end = free_at();
    if (open) busy_.pop_back();
    Cycle busy = busy_cycles_;
    for (; j < n; ++j) {
      free_before[j] = end;
      const Cycle r = std::max({ready[j], floor, horizon_}), d = dur(j);
      if (open && r <= end) {
        floor = start[j] = end;  // behind the last stretch, or touching it: it grows
      } else {
        if (open) busy_.push_back({first, end});
        floor = start[j] = first = r;  // idle before it: a new stretch
        open = true;
      }
      end = floor + d;
      busy += d;
    }
    busy_.push_back({first, end});
    last_end_ = end;
    busy_cycles_ = busy;
  }
  // One request on its own: fill without a series' hint.
  Cycle reserve(Cycle ready, Cycle duration) {
    std::size_t hint = 0;
    return fill(ready, duration, hint);
  }
  // First-come-first-served, as Timeline::reserve: after everything reserved so far.
  Cycle append(Cycle ready, Cycle duration) {
    busy_cycles_ += duration;
    return append_at(std::max({ready, horizon_, free_at()}), duration);
  }
  // No later request is ready before `t`: stretches that end by then are dropped, and no
  // request starts before it.
  void forget_before(Cycle t) {
    if (t <= horizon_) return;
    horizon_ = t;
    const auto end = std::find_if(busy_.begin(), busy_.end(),
                                  [t](const std::pair<Cycle, Cycle>& b) { return b.second > t; });
    busy_.erase(busy_.begin(), end);
  }
  Cycle free_at() const { return busy_.empty() ? last_end_ : busy_.back().second; }
  Cycle busy_cycles() const { return busy_cycles_; }
  // The stretches not yet forgotten, [start, end) in order, disjoint and not touching.
  const std::vector<std::pair<Cycle, Cycle>>& stretches() const { return busy_; }

 private:
  Cycle append_at(Cycle start, Cycle duration) {
    if (!busy_.empty() && busy_.back().second == start)
      busy_.back().second = start + duration;
    else
      busy_.push_back({start, start + duration});
    last_end_ = busy_.back().second;
    return start;
  }
  std::vector<std::pair<Cycle, Cycle>> busy_;  // [start, end), in order
  Cycle horizon_ = 0;                          // forget_before's latest t
  Cycle last_end_ = 0;                         // free_at once every stretch is forgotten
  Cycle busy_cycles_ = 0;
};

}  // namespace stcsim
