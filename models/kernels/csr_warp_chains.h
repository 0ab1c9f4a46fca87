// The CTA of the dependent CSR loop (mapping.csr_gather_loop dependent): our harness's
// kernel (validation/cuda/csr_spmm.cu), whose warps share nothing but the SM. Each warp
// reads its row from the row-swizzle array, then its row_ptr entries (two dependent
// round trips), then stage by stage its own values and column indices, and gathers its
// rows of X^T one at a time: the next gather is issued once the previous one's data is
// in, its FMAs issued on the warp's sub-core and the next column index read from shared
// memory. Then it stores its row of Y^T from registers. There is no CTA-wide barrier: the
// warps drift apart as their gathers hit or miss the L1, and the CTA retires when the
// last warp's store has left the SM.
#pragma once
#include <vector>

#include "models/kernels/csr_launch.h"
#include "models/kernels/l1_gather.h"
#include "models/sm/cta_program.h"

namespace stcsim {

class CsrWarpChains : public CtaProgram {
 public:
  CsrWarpChains(const CsrLaunch& k, const CtaTask& t, int slot, SmContext& sm);
  bool advance(Cycle now) override;

 private:
  enum class Phase { RowOrder, RowPtr, Values, Gather, Store, Done };
  struct Warp {
    Phase phase = Phase::RowOrder;
    std::int64_t row = 0;    // of W
    int sub_core = 0;        // whose FP32 pipe runs its FMAs
    int begin = 0, nnz = 0;  // its nonzeros: [begin, begin + nnz) of col_idx
    int stage = 0, j = 0;    // the stage and the nonzero within it
    bool in_flight = false;  // its request is out
    Cycle ready = 0;         // when its next request may be issued
    Cycle l1_ready = 0;      // a gather: when its L1 hits are in
    Cycle wake = 0;
  };
  // Moves warp `w` as far as it can at `now`; false when it waits (w.wake says until when).
  bool step(std::size_t w, Cycle now);
  void issue(std::size_t w, Cycle now);
  void on_back(std::size_t w, Cycle back);
  // Nonzeros of the warp's current stage.
  int stage_count(const Warp& w) const;

  const CsrLaunch& k_;
  CtaTask task_;
  SmContext& sm_;
  Cycle start_;
  Cycle index_back_ = 0;  // the last warp's row_ptr entries in
  std::vector<Warp> warps_;
  std::vector<MemRequest> requests_;  // one a warp: it has one request out at a time
  std::vector<Span> spans_;           // scratch: a gather's spans
};

}  // namespace stcsim
