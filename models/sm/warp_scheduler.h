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
  // Where a k-sub loads some fragments after its first mma (LoopInstructions::
  // ksub_rest_from): its mma from index rest_from on (issue order) wait for rest_ready too.
  int rest_from = 0;  // 0: none
  Cycle rest_ready = 0;
  // Bytes of those fragments written into the registers this k-sub (0: none loaded); a pipe
  // whose register path carries them (ITensorCore::write_registers) takes them just before
  // the warp's first mma of the k-sub.
  double frag_write_bytes = 0;
  StallCause frag_cause = StallCause::Operand;
  std::vector<Cycle> acc_ready;  // per accumulator tile: previous mma's result
  Cycle first_issue = 0;         // first mma of the current k-sub
  Cycle last_issue = 0;
  Cycle last_done = 0;
};

// The order a warp issues its warp tile's mma in, which says which fragments each one
// finds in the registers its previous mma read: runs of `run` tiles sharing an A
// fragment (a row, by_columns false) or a B fragment (a column, by_columns true); a run of
// one shares the other operand instead; serpentine runs turn at their ends (every other
// run backwards), so a run's first mma shares the other operand with the previous run's
// last. run 0: the operands stay in the same registers throughout (a microbenchmark's
// chains).
struct MmaOrder {
  int run = 0;
  bool by_columns = false;
  bool serpentine = false;
};

// Issue `n` mma instructions (one per accumulator tile) for each warp in `warps` on
// `pipe`, each warp's in `order`, each warp's fragment writes (WarpState::frag_write_bytes)
// just before its first. Idle pipe cycles after `not_before` are charged to `stalls`.
void issue_ksub(ITensorCore& pipe, const MmaKind& kind, const std::vector<WarpState*>& warps, int n,
                MmaOrder order, Cycle not_before, StallCounters& stalls);

}  // namespace stcsim
