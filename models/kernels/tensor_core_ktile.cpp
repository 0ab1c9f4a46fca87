#include "models/kernels/tensor_core_ktile.h"

#include <algorithm>

namespace stcsim {

TensorCoreWarps::TensorCoreWarps(const KernelMapping& map, const MmaKind& kind,
                                 const ISharedMemory& smem)
    : mma(kind),
      mma_per_warp_ksub((map.warp_m / kind.shape().m) * (map.warp_n / kind.shape().n)),
      order(map.mma_order == "columns"
                ? MmaOrder{map.warp_m / kind.shape().m, true, false}
                : MmaOrder{map.warp_n / kind.shape().n, false, map.mma_order == "serpentine"}),
      wavefronts(ldmatrix_wavefronts(map, kind, smem)),
      warps(map.warps()),
      fragment_bytes(kind.shape().k * (map.warp_m * kind.a_bytes_per_k() +
                                       map.warp_n * double(input_bytes(kind.dtype))) +
                     (kind.sparsity.dense() ? 0.0 : map.warp_m / kind.shape().m * 32 * 4.0)),
      b_buffers(map.b_fragment_buffers > 0 ? map.b_fragment_buffers : 2),
      b_columns(std::max(1, map.warp_n / kind.shape().n)),
      parts(map.mainloop_parts),
      sync_at_ktile_end(map.barrier_point == "ktile_end"),
      loop(map.loop) {
  if (loop.ksub_rest_from > 0 && order.by_columns && order.run > 0) {
    const int first_columns = (loop.ksub_rest_from + order.run - 1) / order.run;
    rest_first_b_share = double(std::min(b_columns, first_columns)) / b_columns;
  }
}

std::vector<WarpState> TensorCoreWarps::fresh_warps() const {
  std::vector<WarpState> w(static_cast<std::size_t>(warps));
  for (auto& ws : w) ws.acc_ready.assign(std::size_t(mma_per_warp_ksub), 0.0);
  return w;
}

void compute_tensor_core_ktile(SmContext& sm, const TensorCoreWarps& t, int slot,
                               std::vector<WarpState>& warps, int k_elems, Cycle barrier,
                               StallCause cause, double fill_bytes, double copy_bytes,
                               Cycle& barrier_ready, Cycle& mma_done) {
  const auto shape = t.mma.shape();
  const int ksubs = (k_elems + shape.k - 1) / shape.k;
  const int nsub = int(sm.pipes.size());
  const int nwarps = int(warps.size());
  const bool sync = (t.parts & kMainloopBarrier) != 0, mma = (t.parts & kMainloopMma) != 0;
  const bool frags = (t.parts & kMainloopFragments) != 0;
  // Fragment writes are bookkept only for pipes that charge them (the a100's do not).
  const bool writes = !sm.pipes.empty() && sm.pipes.front()->charges_fragment_writes();
  std::vector<WarpState*> group;
  const int first = slot * nwarps;  // the CTA's first SM-wide warp slot
  const double issue_rate = sm.spec.warp_issue_per_cycle;
  // A kernel whose copies are in its k-tile prelude (the harness's) issues the k-tile's
  // cp.async all at the top, before its first ldmatrix in program order: their bytes take
  // the port (the LSU's path) ahead of the k-tile's fragment reads, counted once, there.
  // Otherwise (CUTLASS's order: a k-sub's fragments, then a group of copies, then its mma)
  // the stage's data trickles into shared memory in slices behind each k-sub's reads.
  // The first k-tile's copies include the prologue's, issued before it: the SM's CTAs then
  // start staggered by their fills, and the pipe lets each fill the others' idle stretches
  // (GapTimeline), as their warps would.
  const bool copies_first = t.loop.copies_first();
  const bool ktile_loop_has_prelude = t.loop.ktile_prelude > 0 || t.loop.ktile_prelude_cycles > 0;
  if (copies_first && copy_bytes > 0) sm.smem.fill(barrier, copy_bytes);
  // No later instruction on this SM is ready before this barrier (its time only grows):
  // the pipes forget the stretches they were busy before it (they fill idle ones after
  // it, GapTimeline). A kernel without preludes never touches the issue ports.
  for (auto& pipe : sm.pipes) pipe->forget_before(barrier);
  if (copies_first || t.loop.rolled_ksubs)
    for (IssuePort& port : sm.issue) port.forget_before(barrier);
  for (int sub = 0; sub < ksubs; ++sub) {
    // The instructions a warp's program has before this k-sub's first fragment load.
    // A k-tile that copies nothing (the last S-1) skips its copies' instructions.
    const int prelude =
        sub == 0 ? t.loop.ktile_prelude + (copy_bytes > 0 ? t.loop.ktile_copy_instructions : 0)
                 : (t.loop.rolled_ksubs ? t.loop.ksub_prelude : 0);
    // The same instructions as the warp issues them alone (their stall counts), where known.
    const auto own = [&](int cycles, int instructions) {
      return cycles > 0 ? double(cycles) : instructions / issue_rate;
    };
    const double prelude_cycles =
        sub == 0
            ? own(t.loop.ktile_prelude_cycles, t.loop.ktile_prelude) +
                  (copy_bytes > 0 ? own(t.loop.ktile_copy_cycles, t.loop.ktile_copy_instructions)
                                  : 0.0)
            : (t.loop.rolled_ksubs ? own(t.loop.ksub_prelude_cycles, t.loop.ksub_prelude) : 0.0);
    for (int w = 0; w < nwarps; ++w) {
      WarpState& ws = warps[std::size_t(w)];
      // Fragments of k-sub `sub` load while the warp's mma of `sub-1` issue; in a rolled
      // k-sub loop after the last of them, where the loop's back edge puts the loads, and
      // so in a k-tile loop with a prelude of its own (the harness's: its SASS has the
      // first k-sub's ldmatrix after the prelude, the previous k-tile's last mma before
      // the back edge), where no barrier already orders them (the anatomy's variants).
      const FragmentReads& f = t.wavefronts[std::size_t(w)][std::size_t(sub)];
      const bool after_back_edge =
          t.loop.rolled_ksubs || (sub == 0 && !sync && ktile_loop_has_prelude);
      Cycle ready = after_back_edge    ? std::max(barrier, ws.last_issue + 1)
                    : sub == 0 && sync ? barrier
                                       : std::max(barrier, ws.first_issue);
      if (prelude_cycles > 0) {  // never 0 where there are prelude instructions
        // On the sub-core's issue port, one warp's run after another's: warps ready
        // together in slot order (the scheduler's greedy rule: the lower slot first), a
        // run in the earliest idle stretch from its ready cycle (IssuePort). Only these
        // runs take the port here: an mma's own issue slot is not charged on it. The warp
        // itself is through them no sooner than its own schedule's stall counts allow.
        const double cycles = prelude / issue_rate;
        const Cycle own_done = ready + prelude_cycles;
        if (prelude > 0)
          ready = sm.issue[std::size_t((first + w) % nsub)].reserve(ready, cycles) + cycles;
        ready = std::max(ready, own_done);
      }
      const bool load = frags || (sub == 0 && cause == StallCause::CtaBoundary);
      if (!load) {
        ws.frag_ready = ready;  // the fragments loaded before the loop, reused
      } else if (t.b_buffers == 2) {
        ws.frag_ready = sm.smem.read(ready, f.total());
      } else {
        // One B buffer: the warp's ldmatrix of the next B follows its last mma of the
        // previous k-sub in program order and overwrites the registers that mma read,
        // so it issues the cycle after that mma (from the previous k-tile at sub 0).
        const Cycle a_done = sm.smem.read(ready, f.a);
        const Cycle b_done = sm.smem.read(std::max(ready, ws.last_issue + 1), f.b);
        ws.frag_ready = std::max(a_done, b_done);
      }
      // A rolled k-sub whose later B fragments load after its first mma (ptxas's order):
      // the first mma wait only for A, the metadata and the B of the columns they use
      // (TensorCoreWarps::rest_first_b_share), the rest land `ksub_rest_gap` cycles
      // after the first fragments are in (when the first mma can issue, at the earliest)
      // plus one column's wavefronts and the latency, and not before the port has served
      // them. All of the k-sub's wavefronts stay on the port at its top, as counted above:
      // it served them from `done - total - latency` (ISharedMemory::read returns its
      // stretch's end plus the latency).
      // (With one B buffer every B already loads after the previous k-sub's last mma.)
      ws.rest_from =
          load && frags && t.loop.rolled_ksubs && t.b_buffers == 2 ? t.loop.ksub_rest_from : 0;
      if (ws.rest_from > 0) {
        const double lat = sm.smem.latency_cycles();
        const Cycle done = ws.frag_ready;
        const Cycle start = done - f.total() - lat;
        ws.frag_ready = std::min(done, start + f.a + f.b * t.rest_first_b_share + lat);
        ws.rest_ready =
            std::max(done, ws.frag_ready + t.loop.ksub_rest_gap + double(f.b) / t.b_columns + lat);
      }
      ws.frag_cause = sub == 0 ? cause : StallCause::Operand;
      // Written into the warp's registers; issue_ksub puts them on the sub-core's pipe.
      ws.frag_write_bytes = load && writes ? t.fragment_bytes : 0;
    }
    // cp.async writes of a stage trickle into shared memory while the previous one is
    // consumed; charge them to the port in slices behind each k-sub's fragment reads.
    if (!copies_first) sm.smem.fill(barrier, fill_bytes / ksubs);
    // Warps take sub-cores by their SM-wide warp slot (slot * warps + w) mod sub-cores, as
    // the hardware assigns them: co-resident CTAs of few warps share all the pipes, not
    // the first few.
    for (int sc = 0; sc < nsub; ++sc) {
      group.clear();
      for (int w = 0; w < nwarps; ++w)
        if ((first + w) % nsub == sc) group.push_back(&warps[std::size_t(w)]);
      if (group.empty()) continue;
      if (mma) {
        issue_ksub(*sm.pipes[std::size_t(sc)], t.mma, group, t.mma_per_warp_ksub, t.order,
                   sm.op_start, sm.counters.stalls);
      } else {
        for (WarpState* ws : group) {  // one ALU instruction reads the landed fragments
          ws->first_issue = ws->last_issue = ws->frag_ready;
          ws->last_done = std::max(ws->last_done, ws->frag_ready + sm.spec.alu_latency_cycles);
        }
      }
    }
  }
  if (!sync) barrier_ready = warps.empty() ? barrier_ready : warps.front().first_issue;
  for (const auto& w : warps) {
    if (sync)  // every warp at its first mma of the last k-sub, or after its last mma
      barrier_ready =
          std::max(barrier_ready, t.sync_at_ktile_end ? w.last_issue + 1 : w.first_issue);
    else
      barrier_ready = std::min(barrier_ready, w.first_issue);  // the first warp through
    mma_done = std::max(mma_done, w.last_done);
  }
}

}  // namespace stcsim
