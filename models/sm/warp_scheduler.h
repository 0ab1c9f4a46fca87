// A sub-core's warp scheduler issuing mma instructions to its tensor-core pipe.
// Among its warps it issues, one instruction at a time, the one that is ready
// earliest (ties to the lower warp slot): greedy, like NVIDIA's loose round-robin.
#pragma once
#include <vector>

#include "models/sm/stall_counters.h"
#include "models/tensor_core/i_tensor_core.h"

namespace stcsim {

struct WarpState {
  Cycle frag_ready = 0;  // this k-sub's A/B fragments are in registers
  StallCause frag_cause = StallCause::Operand;
  std::vector<Cycle> acc_ready;  // per accumulator tile: previous mma's result
  Cycle first_issue = 0;         // first mma of the current k-sub
  Cycle last_issue = 0;
  Cycle last_done = 0;
};

// Issue `n` mma instructions (one per accumulator tile) for each warp in `warps` on
// `pipe`. Idle pipe cycles after `not_before` are charged to `stalls`. A warp issues its
// accumulator tiles in the order of a warp tile `ni` tiles wide, row by row (tile i is
// row i / ni): an instruction after one of the same row finds its A fragment in the
// registers the previous one read, and with ni = 1 its B; ni = 0: the warp's operands
// stay in the same registers throughout (a microbenchmark's chains).
void issue_ksub(ITensorCore& pipe, const MmaKind& kind, const std::vector<WarpState*>& warps, int n,
                int ni, Cycle not_before, StallCounters& stalls);

}  // namespace stcsim
