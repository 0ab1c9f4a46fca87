#include "models/sm/warp_scheduler.h"

#include <algorithm>

namespace stcsim {

namespace {

// Per-thread scratch of issue_ksub, grown to the largest k-sub seen.
struct KsubScratch {
  std::vector<Cycle> ready, start, free_before;
  std::vector<int> code;  // per instruction: warp * 2 + (1 if it waits on its accumulator)
  std::vector<std::uint8_t> reuse;  // per instruction: ITensorCore::kReuseA / kReuseB
  // Per accumulator tile of a warp, what it finds in its registers: built for one (n,
  // order) and kept, as a kernel issues the same warp tile k-sub after k-sub.
  std::vector<std::uint8_t> reuse_of_tile;
  int table_n = -1, table_run = -1;
  bool table_by_columns = false, table_serpentine = false;
  std::vector<int> index;
  std::vector<int> next, first_j, last_j;  // per warp
  std::vector<Cycle*> acc;                 // per warp: its accumulators' ready cycles
  void size(std::size_t total, std::size_t warps) {
    if (ready.size() < total) {
      ready.resize(total);
      start.resize(total);
      free_before.resize(total);
      code.resize(total);
      index.resize(total);
      reuse.resize(total);
    }
    next.assign(warps, 0);
    first_j.assign(warps, -1);
    last_j.assign(warps, -1);
    acc.resize(warps);
  }
};

}  // namespace

void issue_ksub(ITensorCore& pipe, const MmaKind& kind, const std::vector<WarpState*>& warps, int n,
                MmaOrder order, Cycle not_before, StallCounters& stalls) {
  const int lat = pipe.latency(kind);
  const int nw = int(warps.size());
  const std::size_t total = std::size_t(nw) * std::size_t(n);
  thread_local KsubScratch s;
  s.size(total, std::size_t(nw));
  for (int w = 0; w < nw; ++w) s.acc[std::size_t(w)] = warps[std::size_t(w)]->acc_ready.data();
  Cycle* const ready = s.ready.data();
  int* const code = s.code.data();
  int* const index = s.index.data();
  std::uint8_t* const reuse = s.reuse.data();
  // The issue order. An instruction is ready when its warp's fragments are in and its
  // accumulator's previous mma (of the last k-sub) is done; both are known before this
  // k-sub issues anything, so the greedy order (earliest ready first, ties to the lower
  // slot) is fixed up front: a merge of the warps' sequences. The pipe then takes the
  // whole series in one call.
  std::size_t j = 0;
  // A warp issues in program order: none of its instructions before its previous mma (of
  // an earlier k-sub), which a pipe that fills idle stretches would otherwise allow; the
  // order among warps is by readiness alone.
  // The fragments mma i of warp w waits for: the k-sub's first loads, and from rest_from
  // on the ones loaded after its first mma.
  const auto frag_of = [&](int w, int i) {
    const WarpState& ws = *warps[std::size_t(w)];
    return ws.rest_from > 0 && i >= ws.rest_from ? std::max(ws.frag_ready, ws.rest_ready)
                                                 : ws.frag_ready;
  };
  const auto emit = [&](int w, int i) {
    const Cycle frag = frag_of(w, i), a = s.acc[std::size_t(w)][i];
    ready[j] = std::max({frag, a, warps[std::size_t(w)]->last_issue});
    code[j] = w * 2 + (a > frag ? 1 : 0);
    index[j] = i;
    ++j;
  };
  if (nw == 2) {
    // Two warps a sub-core (the common case): a two-way merge (a100 4096³: 0.71 s with
    // the general scan below, 0.51 s with this).
    const Cycle *a0 = s.acc[0], *a1 = s.acc[1];
    int i0 = 0, i1 = 0;
    while (i0 < n && i1 < n) {
      if (std::max(frag_of(1, i1), a1[i1]) < std::max(frag_of(0, i0), a0[i0]))
        emit(1, i1++);
      else
        emit(0, i0++);
    }
    while (i0 < n) emit(0, i0++);
    while (i1 < n) emit(1, i1++);
  } else {
    while (j < total) {
      int pick = -1;
      Cycle best = 0;
      for (int w = 0; w < nw; ++w) {
        const int i = s.next[std::size_t(w)];
        if (i >= n) continue;
        const Cycle r = std::max(frag_of(w, i), s.acc[std::size_t(w)][i]);
        if (pick < 0 || r < best) {
          pick = w;
          best = r;
        }
      }
      emit(pick, s.next[std::size_t(pick)]++);
    }
  }
  // Which register operands each instruction finds in the registers its warp's previous
  // mma read (only for a pipe that charges operand reads): within a run of the order, the
  // run's shared fragment; in runs of one and at serpentine turns, the other one.
  const bool reads = pipe.charges_operand_reads();
  if (reads) {
    if (s.table_n != n || s.table_run != order.run || s.table_by_columns != order.by_columns ||
        s.table_serpentine != order.serpentine) {
      const std::uint8_t shared = order.by_columns ? ITensorCore::kReuseB : ITensorCore::kReuseA;
      const std::uint8_t other = order.by_columns ? ITensorCore::kReuseA : ITensorCore::kReuseB;
      s.reuse_of_tile.resize(std::size_t(n));
      for (int i = 0; i < n; ++i) {
        // The other operand is shared with the previous mma in runs of one, and at a
        // serpentine order's turns (a run's first mma after the previous run's last).
        const bool turn =
            order.run > 0 && i > 0 && (order.run == 1 || (order.serpentine && i % order.run == 0));
        s.reuse_of_tile[std::size_t(i)] =
            order.run <= 0 ? ITensorCore::kReuseA | ITensorCore::kReuseB
                           : std::uint8_t((i % order.run != 0 ? shared : 0) | (turn ? other : 0));
      }
      s.table_n = n, s.table_run = order.run, s.table_by_columns = order.by_columns;
      s.table_serpentine = order.serpentine;
    }
    for (std::size_t q = 0; q < total; ++q) reuse[q] = s.reuse_of_tile[std::size_t(index[q])];
  }
  // The series in one call per stretch between fragment writes: a warp's writes take the
  // register path just before its first mma (so a later warp's writes never hold back an
  // earlier warp's mma), and the path's wait for them is the fragments' stall.
  // (Without writes, as on every preset lacking the path: one call, no scan.)
  bool writes = false;
  for (const WarpState* w : warps) writes |= w->frag_write_bytes > 0;
  std::size_t from = 0;
  for (std::size_t q = writes ? 0 : total; q <= total; ++q) {
    WarpState* w = q < total && index[q] == 0 ? warps[std::size_t(code[q] >> 1)] : nullptr;
    if (q < total && !(w && w->frag_write_bytes > 0)) continue;
    if (q > from)
      pipe.issue_series(ready + from, q - from, kind, reads ? reuse + from : nullptr,
                        s.start.data() + from, s.free_before.data() + from);
    if (w) {
      Cycle written = 0;
      const Cycle idle =
          pipe.write_registers(w->frag_ready, w->frag_write_bytes, not_before, &written);
      if (idle > 0) stalls.add(w->frag_cause, idle);
      // The next piece stays in the series' order (after the previous piece's last mma:
      // a pipe that fills idle stretches restarts each call's order), and its first mma,
      // this warp's, after its writes; the rest of the piece follows it.
      ready[q] = std::max({ready[q], written, q > 0 ? s.start[q - 1] : Cycle(0)});
    }
    from = q;
  }
  const Cycle* const start = s.start.data();
  const Cycle* const free_at = s.free_before.data();
  for (j = 0; j < total; ++j) {
    const int w = code[j] >> 1;
    const Cycle t = start[j];
    const Cycle free_before = std::max(free_at[j], not_before);
    if (t > free_before)
      stalls.add((code[j] & 1) ? StallCause::Dependency : warps[std::size_t(w)]->frag_cause,
                 t - free_before);
    s.acc[std::size_t(w)][index[j]] = t + lat;
    if (index[j] == 0) s.first_j[std::size_t(w)] = int(j);
    s.last_j[std::size_t(w)] = int(j);
  }
  // A warp issues in program order (emit's floor), so its last instruction is its latest
  // result.
  for (int w = 0; w < nw; ++w) {
    WarpState& ws = *warps[std::size_t(w)];
    if (s.last_j[std::size_t(w)] < 0) continue;
    if (s.first_j[std::size_t(w)] >= 0) ws.first_issue = start[s.first_j[std::size_t(w)]];
    ws.last_issue = start[s.last_j[std::size_t(w)]];
    ws.last_done = std::max(ws.last_done, ws.last_issue + lat);
  }
}

}  // namespace stcsim
