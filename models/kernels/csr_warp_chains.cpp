#include "models/kernels/csr_warp_chains.h"

#include <algorithm>

namespace stcsim {

CsrWarpChains::CsrWarpChains(const CsrLaunch& k, const CtaTask& t, int slot, SmContext& sm)
    : k_(k), task_(t), sm_(sm), start_(now_cycles() + sm.spec.cta_launch_cycles) {
  const CsrPanel& panel = k.panels[std::size_t(t.panel)];
  const BlockMap& map = *k.op.block_map;
  const int nsub = int(sm.cuda.size());
  // Rows the panel lacks (its last CTA's) have no warp: the kernel's return before any
  // work.
  warps_.resize(panel.rows.size());
  for (std::size_t w = 0; w < warps_.size(); ++w) {
    Warp& x = warps_[w];
    x.row = panel.rows[w];
    // Warps take sub-cores by their SM-wide number: the CTA's slot, then the warp.
    x.sub_core = (slot * k.map.cta_m + int(w)) % nsub;
    x.begin = map.row_ptr[std::size_t(x.row)];
    x.nnz = map.row_ptr[std::size_t(x.row) + 1] - x.begin;
    x.ready = x.wake = start_;
  }
  requests_ = sm.requests.take(warps_.size());
  wake_ = start_;
}

int CsrWarpChains::stage_count(const Warp& w) const {
  return std::min(k_.map.cta_k, w.nnz - w.stage * k_.map.cta_k);
}

bool CsrWarpChains::advance(Cycle now) {
  bool retired = true;
  Cycle next = kPending;
  for (std::size_t w = 0; w < warps_.size(); ++w) {
    if (step(w, now)) continue;
    retired = false;
    // A warp whose request went out in this pass is advanced again at this cycle, once
    // the memory system has timed it (the SM's contract): the others set the wake.
    next = std::min(next, warps_[w].wake);
  }
  if (!retired) {
    wake_ = next;
    return false;
  }
  sm_.counters.index_wait_cycles += index_back_ - start_;
  sm_.requests.give(requests_);
  return true;
}

bool CsrWarpChains::step(std::size_t i, Cycle now) {
  Warp& w = warps_[i];
  while (w.phase != Phase::Done) {
    if (w.in_flight) {
      const MemRequest& r = requests_[i];
      if (r.done == kPending) {  // issued in this pass: not timed yet
        w.wake = kPending;
        return false;
      }
      // A store is out of the SM once its last byte has crossed the link; a load's data
      // is in when the memory system and (a gather's hits) the L1 have delivered it.
      const Cycle back = w.phase == Phase::Store ? r.link_done : std::max(r.done, w.l1_ready);
      if (!reached(back, now)) {
        w.wake = back;
        return false;
      }
      w.in_flight = false;
      on_back(i, back);
      continue;
    }
    if (!reached(w.ready, now)) {
      w.wake = w.ready;
      return false;
    }
    issue(i, now);
  }
  return true;
}

void CsrWarpChains::issue(std::size_t i, Cycle now) {
  Warp& w = warps_[i];
  MemRequest& r = requests_[i];
  r.reset();
  w.l1_ready = 0;
  w.in_flight = true;
  const auto& op = k_.op;
  const int eb = input_bytes(op.dtype);
  const auto [m0, n0, rows, cols] = tile_extent(k_, task_);
  switch (w.phase) {
    case Phase::RowOrder:  // the warp's entry of the row-swizzle array: its row
      r.add_run(k_.row_order + std::uint64_t(task_.panel * k_.map.cta_m + int(i)) * 4, 4);
      break;
    case Phase::RowPtr:  // row_ptr[row] and row_ptr[row + 1]
      r.add_run(k_.base.index + std::uint64_t(w.row) * 4, 8);
      break;
    case Phase::Values: {  // the stage's values and column indices, a lane each
      const auto first = std::uint64_t(w.begin + w.stage * k_.map.cta_k);
      const auto n = std::uint32_t(stage_count(w));
      r.add_run(k_.base.a + first * std::uint64_t(eb), n * std::uint32_t(eb));
      r.add_run(k_.base.index + k_.col_idx_offset + first * 4, n * 4);
      break;
    }
    case Phase::Gather: {  // its row of X^T for the CTA's columns, through the L1
      const std::int64_t col =
          op.block_map->col_idx[std::size_t(w.begin + w.stage * k_.map.cta_k + w.j)];
      w.l1_ready = gather_x_rows(k_, task_, &col, 1, sm_, spans_, r, now);
      if (r.empty()) return;  // every sector hit the L1
      break;
    }
    case Phase::Store: {  // its row of Y^T, from registers
      const int ob = output_bytes(op.dtype);
      r.write = true;
      r.add_run(k_.base.c + std::uint64_t((w.row * op.n + n0) * ob), std::uint32_t(cols * ob));
      break;
    }
    case Phase::Done:
      w.in_flight = false;
      return;
  }
  sm_.submit(r);
}

// The harness's loop, in the order its PTX issues it (nvcc -O3, sm_90a), one nonzero:
//   ld.global x -> cvt.f32.f16 x -> ld.shared w -> fma x4 -> ld.shared next col ->
//   mul.wide, add, add (the next row's address) -> ld.global next x
// Each step waits on the one before it, so between one gather's data and the next
// gather's issue lie a conversion, two shared-memory loads, the nonzero's instructions and
// three dependent address operations (kAddressOps).
constexpr int kAddressOps = 3;

void CsrWarpChains::on_back(std::size_t i, Cycle back) {
  Warp& w = warps_[i];
  const Cycle smem = sm_.smem.latency_cycles();
  const Cycle alu = sm_.spec.alu_latency_cycles;
  const Cycle address = kAddressOps * alu;
  switch (w.phase) {
    case Phase::RowOrder:
      w.phase = Phase::RowPtr;
      w.ready = back;
      return;
    case Phase::RowPtr:
      index_back_ = std::max(index_back_, back);
      w.phase = w.nnz > 0 ? Phase::Values : Phase::Store;  // an empty row stores zeros
      w.ready = back;
      return;
    case Phase::Values:  // stored to shared memory; the first column index read back
      w.phase = Phase::Gather;
      w.j = 0;
      w.ready = back + smem + address;
      return;
    case Phase::Gather: {
      // The data converted and the nonzero's value read from shared memory, then its
      // instructions (conversion, FMAs) on the warp's sub-core.
      const Cycle issued =
          sm_.cuda[std::size_t(w.sub_core)].reserve(back + alu + smem, k_.cycles_per_nnz) +
          k_.cycles_per_nnz;
      if (++w.j < stage_count(w)) {
        w.ready = issued + smem + address;  // the next column index, then its row's address
      } else if ((w.stage + 1) * k_.map.cta_k < w.nnz) {
        ++w.stage;
        w.phase = Phase::Values;
        w.ready = issued;
      } else {
        w.phase = Phase::Store;
        w.ready = issued + alu;  // the last FMAs' results
      }
      return;
    }
    case Phase::Store:
      sm_.last_write_done = std::max(sm_.last_write_done, requests_[i].done);
      w.phase = Phase::Done;
      return;
    case Phase::Done:
      return;
  }
}

}  // namespace stcsim
