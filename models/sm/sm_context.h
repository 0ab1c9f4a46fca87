// What a running CTA may use of the SM it is resident on: the sub-cores' tensor-core
// and FP32 pipes, the shared-memory port, the TMA unit, the L1 tag store, the SM's
// counters, and the path to the memory system (and the storage of its requests).
// Kernels see the SM only through this.
#pragma once
#include <limits>
#include <memory>
#include <vector>

#include "models/common/timeline.h"
#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"
#include "models/sm/issue_port.h"
#include "models/sm/request_pool.h"
#include "models/sm/sm_counters.h"
#include "models/sm/sm_spec.h"
#include "models/smem/i_shared_memory.h"
#include "models/tensor_core/i_tensor_core.h"
#include "models/tma/i_tma.h"

namespace stcsim {

// A time not known yet: a memory request waiting for its grant.
inline constexpr Cycle kPending = std::numeric_limits<Cycle>::infinity();

// The tag store of an SM's L1 (the SM's own, and a test's of one CTA): the spec's
// capacity, 4 ways, one slice.
inline SectoredL2Spec l1_tag_spec(const SmSpec& s) {
  SectoredL2Spec l1;
  l1.capacity_kib = s.l1_kib;
  l1.ways = 4;
  l1.slices = 1;
  return l1;
}

struct SmContext {
  const SmSpec& spec;
  ISharedMemory& smem;
  ITma& tma;
  std::vector<std::unique_ptr<ITensorCore>>& pipes;  // one per sub-core
  std::vector<Timeline>& cuda;                       // FP32 FMA pipe per sub-core
  std::vector<IssuePort>& issue;  // per sub-core: its scheduler's issue port (mainloop preludes)
  SectoredL2* l1;                 // tag store of the L1 (null: none)
  SmCounters& counters;
  Cycle& last_write_done;  // when the SM's last store reached the L2
  std::vector<MemRequest*>& to_submit;
  RequestPool& requests;  // storage of retired CTAs' requests, for the next ones
  Cycle op_start = 0;     // the op's first cycle: pipe stalls are charged from here on

  // Hand `r` to the memory system at the end of this cycle's pass; its times are
  // filled in before the CTA is advanced again.
  void submit(MemRequest& r) {
    r.done = kPending;
    to_submit.push_back(&r);
  }
};

}  // namespace stcsim
