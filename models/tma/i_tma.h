// Kind "tma": an SM's tensor memory accelerator (Hopper). A thread hands it one
// descriptor-based bulk tensor copy (cp.async.bulk.tensor) per box; it walks the box,
// sends the memory requests for the whole tile and, when the last byte has landed in
// shared memory, completes the transaction count of an mbarrier that warps wait on.
//
// Contract: `present()` says whether the SM has such a unit (kernels that need one
// cannot run without it). `issue(ready, boxes)` accepts a copy of `boxes` boxes no
// earlier than `ready` and no earlier than the unit's previous copy lets it, and
// returns the cycle its requests enter the memory system. `observed(landed)` is the
// cycle a warp waiting on the mbarrier sees the phase flip for data that landed at
// `landed`.
#pragma once
#include <memory>

#include "models/common/cycles.h"

namespace stcsim {

class ITma {
 public:
  virtual ~ITma() = default;
  virtual bool present() const = 0;
  virtual Cycle issue(Cycle ready, int boxes) = 0;
  virtual Cycle observed(Cycle landed) const = 0;
  virtual std::unique_ptr<ITma> clone_empty() const = 0;
};

}  // namespace stcsim
