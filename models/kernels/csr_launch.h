// A launch of the row-split CSR SpMM kernel (csr_spmm.cpp): its plan (csr_plan.h) and
// what its CTAs read, shared by the staged CTA (Sputnik's loop) and the warp chains of
// the dependent loop (csr_warp_chains.h).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/kernels/csr_plan.h"
#include "models/kernels/gemm_tensors.h"
#include "models/kernels/l1_gather.h"
#include "models/sm/cta_program.h"

namespace stcsim {

struct CsrLaunch : KernelLaunch, GemmTensors {
  std::vector<CsrPanel> panels;
  double cycles_per_nnz = 0;         // per warp (one row) per nonzero
  bool dependent_gathers = false;    // mapping.csr_gather_loop dependent: one gather in flight
  std::uint64_t col_idx_offset = 0;  // col_idx after the whole row_ptr array
  // The dependent loop's row-swizzle array (a row index a warp, in launch order), read by
  // each warp before its row_ptr entries.
  std::uint64_t row_order = 0;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

// Gathers rows cols[0, n) of X^T, CTA `t`'s columns of each, through the SM's L1 into
// `r` (the sectors it misses; `spans` is scratch), and returns when the hits are in.
// Leaves `r` marked done when every sector hit; else the caller submits it.
Cycle gather_x_rows(const CsrLaunch& k, const CtaTask& t, const std::int64_t* cols, std::size_t n,
                    SmContext& sm, std::vector<Span>& spans, MemRequest& r, Cycle now);

}  // namespace stcsim
