#include "models/sm/sm.h"

#include <algorithm>
#include <limits>

#include "models/sm/cta_scheduler.h"

namespace stcsim {

namespace {
constexpr Cycle kPending = std::numeric_limits<Cycle>::infinity();  // awaiting a grant
}

Sm::Sm(sc_core::sc_module_name name, int id, const SmSpec& spec, const ITensorCore& tc_proto,
       const ISharedMemory& smem_proto, MemorySystem& mem, CtaScheduler& sched)
    : sc_module(name), id_(id), spec_(spec), mem_(mem), sched_(sched) {
  for (int i = 0; i < spec.sub_cores; ++i) pipes_.push_back(tc_proto.clone_empty());
  smem_ = smem_proto.clone_empty();
  cuda_.resize(std::size_t(spec.sub_cores));
  if (spec.l1_kib > 0) {
    SectoredL2Spec l1;
    l1.capacity_kib = spec.l1_kib;
    l1.ways = 4;
    l1.slices = 1;
    l1_ = std::make_unique<SectoredL2>(l1);
  }
  SC_THREAD(run);
}

Cycle Sm::cuda_core_busy_cycles() const {
  Cycle b = 0;
  for (const auto& t : cuda_) b += t.busy_cycles();
  return b;
}

void Sm::launch(const KernelLaunch* k, Cycle op_start) {
  kernel_ = k;
  op_start_ = op_start;
  launch_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Sm::run() {
  while (true) {
    wait(launch_ev_);
    run_kernel();
    done.notify(sc_core::SC_ZERO_TIME);
  }
}

void Sm::run_kernel() {
  slots_.assign(kernel_->ctas_per_sm, Slot{});
  for (auto& s : slots_) s.loads.resize(std::max(1, kernel_->map.stages));
  bool more = true;
  int active_traced = 0;
  while (true) {
    const Cycle now = now_cycles();
    const int free = int(std::count_if(slots_.begin(), slots_.end(),
                                       [](const Slot& s) { return s.state == State::Empty; }));
    if (more && free > 0) {
      sched_.request(id_, free);
      wait(sched_.grant(id_));
      auto got = sched_.take_granted(id_);
      if (int(got.size()) < free) more = false;
      auto it = slots_.begin();
      for (const auto& t : got) {
        while (it->state != State::Empty) ++it;
        start_cta(*it, t);
      }
    }
    for (auto& s : slots_) advance(s, now);
    if (!to_submit_.empty()) {
      mem_.submit(id_, to_submit_);
      to_submit_.clear();
      wait(mem_.grant(id_));
      continue;  // results are in: advance again at the same cycle
    }
    int active = 0;
    Cycle next = kPending;
    for (const auto& s : slots_)
      if (s.state != State::Empty) {
        ++active;
        next = std::min(next, s.wake);
      }
    if (trace_signals && active != active_traced) active_ctas.write(active_traced = active);
    if (active == 0) {
      if (!more) break;
      continue;
    }
    if (next == kPending) throw std::logic_error("SM slot waits on a grant that never comes");
    // A slot ready this cycle was served above, so time must move on.
    wait_until(std::max(ceil_cycle(next), now + 1));
  }
  if (trace_signals) active_ctas.write(0);
}

void Sm::start_cta(Slot& s, const CtaTask& t) {
  const auto& k = *kernel_;
  s.state = State::Launch;
  s.task = t;
  s.kt = 0;
  s.ktiles = int((t.k_end - t.k_begin + k.map.cta_k - 1) / k.map.cta_k);
  s.wake = now_cycles() + spec_.cta_launch_cycles;
  s.barrier_ready = 0;
  s.mma_done = 0;
  s.first_ktile = true;
  s.started = now_cycles();
  s.panel = nullptr;
  s.csr = nullptr;
  if (k.csr) {
    s.csr = &k.csr_panels[std::size_t(t.panel)];
    s.ktiles = int(s.csr->stages.size());
    s.l1_ready.assign(s.loads.size(), 0);
    s.warps.assign(s.csr->rows.size(), WarpState{});
    return;
  }
  if (k.kind == KernelKind::Gemm && k.block_sparse) {
    s.panel = &k.panels[std::size_t(t.panel)];
    s.ktiles = int(s.panel->ktiles.size());
    s.blocks_through.assign(std::size_t(s.ktiles), 0.0);
    double sum = 0;
    for (int i = 0; i < s.ktiles; ++i) s.blocks_through[std::size_t(i)] = sum += s.panel->ktiles[std::size_t(i)].blocks;
    s.decode_start = kPending;
  }
  if (k.kind == KernelKind::Gemm) {
    s.warps.assign(k.map.warps(), WarpState{});
    for (auto& w : s.warps) w.acc_ready.assign(k.mma_per_warp_ksub, 0.0);
  }
}

namespace {
// Where a CTA's output tile starts and how much of it lies inside the problem.
struct TileExtent {
  std::int64_t m0, n0, rows, cols;
};
TileExtent tile_extent(const KernelLaunch& k, const CtaTask& t) {
  const std::int64_t m0 = std::int64_t(t.tile_m) * k.map.cta_m, n0 = std::int64_t(t.tile_n) * k.map.cta_n;
  return {m0, n0, std::min<std::int64_t>(k.map.cta_m, k.op.m - m0), std::min<std::int64_t>(k.map.cta_n, k.op.n - n0)};
}
}  // namespace

Cycle Sm::index_ready(const Slot& s, int kt) const {
  if (s.decode_start == kPending) return kPending;
  return s.decode_start + s.blocks_through[std::size_t(kt)] / spec_.block_index_blocks_per_cycle;
}

void Sm::issue_index_load(Slot& s) {
  const auto& k = *kernel_;
  if (s.csr) {  // each row's two row_ptr entries (rows are scattered by the row swizzle)
    s.index_req = MemRequest{};
    for (auto r : s.csr->rows) s.index_req.runs.push_back(RowRun{k.index_base + std::uint64_t(r) * 4, 8, 1, 0});
    s.index_req.done = kPending;
    to_submit_.push_back(&s.index_req);
    return;
  }
  const PanelPlan& p = *s.panel;
  MemRequest& r = s.index_req;
  r = MemRequest{};
  r.runs.push_back(RowRun{k.index_base + p.row_ptr_offset, p.row_ptr_bytes, 1, 0});
  if (p.col_idx_bytes > 0) r.runs.push_back(RowRun{k.index_base + p.col_idx_offset, p.col_idx_bytes, 1, 0});
  r.done = kPending;
  to_submit_.push_back(&r);
}

void Sm::issue_block_stage_load(Slot& s, int kt) {
  const auto& k = *kernel_;
  const auto& op = k.op;
  const BlockKTile& t = s.panel->ktiles[std::size_t(kt)];
  const auto [m0, n0, tile_rows, tile_cols] = tile_extent(k, s.task);
  (void)m0;
  (void)tile_rows;
  const int eb = input_bytes(op.dtype);
  MemRequest& r = s.loads[kt % s.loads.size()];
  r = MemRequest{};
  // Kept blocks' values: contiguous in BSR storage, one run per block row of the panel.
  double a_bytes = 0;
  for (const auto& [off, bytes] : t.a_runs) {
    r.runs.push_back(RowRun{k.a_base + off, bytes, 1, 0});
    a_bytes += bytes;
  }
  if (!k.mma.sparsity.dense() && a_bytes > 0) {
    // 2:4 inside blocks: the metadata is stored in the values' order, scaled.
    const double ratio = k.mma.meta_bytes_per_k() / k.mma.a_bytes_per_k();
    r.runs.push_back(RowRun{k.meta_base + std::uint64_t(double(t.a_runs.front().first) * ratio),
                            std::uint32_t(a_bytes * ratio), 1, 0});
  }
  // Gather: the activations the kept blocks multiply. The kernel reads X^T (K-major, as
  // gathering SpMM kernels do): a kept K column is a contiguous row of the x tile's
  // activations, so narrow blocks do not waste sectors.
  const std::uint64_t bb = k.b_base + std::uint64_t(s.task.batch) * k.b_stride;
  for (const auto& [k0, len] : t.b_segs)
    r.runs.push_back(RowRun{bb + std::uint64_t((k0 * op.n + n0) * eb), std::uint32_t(tile_cols * eb),
                            std::uint32_t(len), std::uint64_t(op.n * eb)});
  r.done = kPending;
  to_submit_.push_back(&r);
}

void Sm::issue_csr_stage_load(Slot& s, int kt, Cycle now) {
  const auto& k = *kernel_;
  const auto& op = k.op;
  const CsrStage& st = s.csr->stages[std::size_t(kt)];
  const int eb = input_bytes(op.dtype);
  const std::int64_t n0 = std::int64_t(s.task.tile_n) * k.map.cta_n;
  const auto cols = std::uint32_t(std::min<std::int64_t>(k.map.cta_n, op.n - n0));
  MemRequest& r = s.loads[std::size_t(kt) % s.loads.size()];
  r = MemRequest{};
  const std::uint64_t idx = k.index_base + k.csr_col_idx_offset;
  for (const auto& [off, bytes] : st.value_runs) r.runs.push_back(RowRun{k.a_base + off, bytes, 1, 0});
  for (const auto& [off, bytes] : st.index_runs) r.runs.push_back(RowRun{idx + off, bytes, 1, 0});
  // Gathers of X^T rows go through the L1: only the sectors it misses reach the L2.
  const std::uint64_t xb = k.b_base + std::uint64_t(s.task.batch) * k.b_stride;
  double gather_bytes = 0;
  for (const std::int64_t col : st.cols) {
    const std::uint64_t a0 = xb + std::uint64_t((col * op.n + n0) * eb), a1 = a0 + std::uint64_t(cols) * eb;
    gather_bytes += double(a1 - a0);
    if (!l1_) {
      r.runs.push_back(RowRun{a0, std::uint32_t(a1 - a0), 1, 0});
      continue;
    }
    for (std::uint64_t line = a0 / 128 * 128; line < a1; line += 128) {
      std::uint8_t want = 0;
      for (int sct = 0; sct < 4; ++sct) {
        const std::uint64_t lo = line + std::uint64_t(sct) * 32;
        if (lo + 32 > a0 && lo < a1) want |= std::uint8_t(1u << sct);
      }
      const std::uint8_t miss = l1_->access(line, want, false).miss_sectors;
      for (int sct = 0; sct < 4; ++sct) {
        if (!(want >> sct & 1)) continue;
        counters_.l1_sectors += 1;
        if (miss >> sct & 1)
          r.runs.push_back(RowRun{line + std::uint64_t(sct) * 32, 32, 1, 0});
        else
          counters_.l1_hit_sectors += 1;
      }
    }
  }
  // Every gathered byte crosses the L1's data path, shared with shared memory; hits
  // arrive after the L1's latency (a hit on a line still being filled is not delayed
  // further: no MSHR model).
  const Cycle l1_done = smem_->write(now, gather_bytes);
  s.l1_ready[std::size_t(kt) % s.loads.size()] = std::max(l1_done, now + spec_.l1_hit_latency_cycles);
  r.done = kPending;
  to_submit_.push_back(&r);
}

void Sm::issue_stage_load(Slot& s, int kt) {
  const auto& k = *kernel_;
  if (k.csr) {
    issue_csr_stage_load(s, kt, now_cycles());
    return;
  }
  if (k.block_sparse) {
    issue_block_stage_load(s, kt);
    return;
  }
  const auto& op = k.op;
  const int eb = input_bytes(op.dtype);
  const std::int64_t k0 = s.task.k_begin + std::int64_t(kt) * k.map.cta_k;
  const std::int64_t kb = std::min<std::int64_t>(k.map.cta_k, s.task.k_end - k0);
  const auto [m0, n0, tile_rows, tile_cols] = tile_extent(k, s.task);
  MemRequest& r = s.loads[kt % s.loads.size()];
  r = MemRequest{};
  // A: one row of kept values per row of the tile (compressed when sparse).
  const double a_bpk = k.mma.a_bytes_per_k();
  const auto rows_a = std::uint32_t(tile_rows);
  const std::uint64_t bi = std::uint64_t(s.task.batch);
  r.runs.push_back(RowRun{k.a_base + bi * k.a_stride + std::uint64_t((m0 * op.k + k0) * a_bpk), std::uint32_t(kb * a_bpk),
                          rows_a, std::uint64_t(op.k * a_bpk)});
  if (!k.mma.sparsity.dense()) {
    // Metadata is stored reordered tile by tile: one contiguous block per (tile, k-tile).
    const double tile_meta = double(k.map.cta_m) * k.map.cta_k * k.mma.meta_bytes_per_k();
    const std::int64_t ktiles = (op.k + k.map.cta_k - 1) / k.map.cta_k;
    const std::int64_t block = std::int64_t(s.task.tile_m) * ktiles + (k0 / k.map.cta_k);
    r.runs.push_back(RowRun{k.meta_base + bi * k.meta_stride + std::uint64_t(block * tile_meta),
                            std::uint32_t(rows_a * kb * k.mma.meta_bytes_per_k()), 1, 0});
  }
  r.runs.push_back(RowRun{k.b_base + bi * k.b_stride + std::uint64_t((n0 * op.k + k0) * eb), std::uint32_t(kb * eb),
                          std::uint32_t(tile_cols), std::uint64_t(op.k * eb)});
  r.done = kPending;
  to_submit_.push_back(&r);
}

void Sm::issue_reduce_load(Slot& s) {
  const auto& k = *kernel_;
  const auto& op = k.op;
  const auto [m0, n0, tile_rows, cols] = tile_extent(k, s.task);
  const auto rows = std::uint32_t(tile_rows);
  MemRequest& r = s.loads[0];
  r = MemRequest{};
  for (int split = 0; split < k.splits; ++split)
    r.runs.push_back(RowRun{k.workspace_base + std::uint64_t(s.task.batch) * k.workspace_stride +
                                std::uint64_t((split * op.m * op.n + m0 * op.n + n0) * 4),
                            std::uint32_t(cols * 4), rows, std::uint64_t(op.n * 4)});
  r.done = kPending;
  to_submit_.push_back(&r);
}

void Sm::issue_store(Slot& s) {
  const auto& k = *kernel_;
  const auto& op = k.op;
  const auto [m0, n0, tile_rows, cols] = tile_extent(k, s.task);
  const auto rows = std::uint32_t(tile_rows);
  const bool partial = k.kind == KernelKind::Gemm && k.map.split_k > 1;
  const int ob = partial ? 4 : output_bytes(op.dtype);
  const std::uint64_t bi = std::uint64_t(s.task.batch);
  const std::uint64_t base = partial ? k.workspace_base + bi * k.workspace_stride +
                                           std::uint64_t(s.task.split * op.m * op.n * 4)
                                     : k.c_base + bi * k.c_stride;
  s.store = MemRequest{};
  s.store.write = true;
  if (s.csr) {
    // Y^T row-major (K-major for the next layer, the layout the kernel reads X^T in):
    // one contiguous run per row of W.
    for (auto row : s.csr->rows)
      s.store.runs.push_back(RowRun{k.c_base + std::uint64_t((row * op.n + n0) * ob), std::uint32_t(cols * ob), 1, 0});
  } else if (k.transposed_output && !partial) {
    // The kernel's D is y^T: the epilogue transposes through shared memory and writes
    // y's rows (the tile's columns) contiguously.
    s.store.runs.push_back(RowRun{base + std::uint64_t((n0 * op.m + m0) * ob), std::uint32_t(rows * ob),
                                  std::uint32_t(cols), std::uint64_t(op.m * ob)});
  } else {
    s.store.runs.push_back(RowRun{base + std::uint64_t((m0 * op.n + n0) * ob), std::uint32_t(cols * ob),
                                  rows, std::uint64_t(op.n * ob)});
  }
  s.store.done = kPending;
  to_submit_.push_back(&s.store);
}

void Sm::compute_csr_stage(Slot& s, Cycle barrier) {
  const auto& k = *kernel_;
  const CsrStage& st = s.csr->stages[std::size_t(s.kt)];
  const Cycle ready = barrier;
  const int nsub = int(cuda_.size());
  const int first = int(&s - slots_.data()) * int(s.warps.size());
  Cycle done = ready;
  for (std::size_t w = 0; w < st.row_nnz.size(); ++w) {
    if (st.row_nnz[w] == 0) continue;
    const Cycle dur = st.row_nnz[w] * k.csr_cycles_per_nnz;
    const Cycle t = cuda_[std::size_t((first + int(w)) % nsub)].reserve(ready, dur);
    done = std::max(done, t + dur);
  }
  // The CTA syncs before the stage's buffer is refilled (Sputnik's __syncthreads).
  s.barrier_ready = done;
  s.mma_done = done;
}

void Sm::compute_ktile(Slot& s, Cycle barrier, StallCause cause, double fill_bytes) {
  const auto& k = *kernel_;
  if (k.csr) {
    compute_csr_stage(s, barrier);
    return;
  }
  const auto shape = k.mma.shape();
  const std::int64_t k0 = s.task.k_begin + std::int64_t(s.kt) * k.map.cta_k;
  const int kb = k.block_sparse ? s.panel->ktiles[std::size_t(s.kt)].k_elems
                                : int(std::min<std::int64_t>(k.map.cta_k, s.task.k_end - k0));
  const int ksubs = (kb + shape.k - 1) / shape.k;
  const int nsub = int(pipes_.size());
  std::vector<WarpState*> group;
  for (int sub = 0; sub < ksubs; ++sub) {
    for (int w = 0; w < int(s.warps.size()); ++w) {
      WarpState& ws = s.warps[w];
      // Fragments of k-sub `sub` load while the warp's mma of `sub-1` issue.
      const Cycle ready = sub == 0 ? barrier : std::max(barrier, ws.first_issue);
      ws.frag_ready = smem_->read(ready, k.wavefronts[w][sub]);
      ws.frag_cause = sub == 0 ? cause : StallCause::Operand;
    }
    // cp.async writes of a stage trickle into shared memory while the previous one is
    // consumed; charge them to the port in slices behind each k-sub's fragment reads.
    smem_->write(barrier, fill_bytes / ksubs);
    // Warps take sub-cores by their SM-wide warp slot (slot * warps + w) mod sub-cores, as
    // the hardware assigns them: co-resident CTAs of few warps share all the pipes, not
    // the first few.
    const int first = int(&s - slots_.data()) * int(s.warps.size());
    for (int sc = 0; sc < nsub; ++sc) {
      group.clear();
      for (int w = 0; w < int(s.warps.size()); ++w)
        if ((first + w) % nsub == sc) group.push_back(&s.warps[w]);
      if (!group.empty())
        issue_ksub(*pipes_[sc], k.mma, group, k.mma_per_warp_ksub, op_start_, counters_.stalls);
    }
  }
  for (const auto& w : s.warps) {
    s.barrier_ready = std::max(s.barrier_ready, w.first_issue);  // first mma of the last k-sub
    s.mma_done = std::max(s.mma_done, w.last_done);
  }
}

void Sm::advance(Slot& s, Cycle now) {
  const auto& k = *kernel_;
  const int stages = int(s.loads.size());
  while (true) {
    switch (s.state) {
      case State::Empty:
        return;
      case State::Launch:
        if (!reached(s.wake, now)) return;
        if (k.kind == KernelKind::SplitKReduce) {
          issue_reduce_load(s);
          s.state = State::ReduceLoad;
        } else if (k.block_sparse || k.csr) {
          // The index unit fetches the panel's row_ptr/col_idx slice before any value
          // load can be addressed.
          issue_index_load(s);
          s.index_issued = now;
          s.wake = kPending;
          s.state = State::IndexFetch;
          return;
        } else {
          for (int st = 0; st < std::min(stages - 1, s.ktiles); ++st) issue_stage_load(s, st);
          s.state = State::Main;
        }
        s.wake = kPending;
        return;
      case State::IndexFetch: {
        if (!reached(s.index_req.done, now)) {
          s.wake = s.index_req.done;
          return;
        }
        if (s.csr) {  // row offsets in: the prologue stages can be addressed
          counters_.index_wait_cycles += now - s.index_issued;
          for (int st = 0; st < std::min(stages - 1, s.ktiles); ++st) issue_stage_load(s, st);
          if (s.ktiles == 0) {
            s.mma_done = now;
            s.state = State::Epilogue;
            continue;
          }
          s.state = State::Main;
          s.wake = kPending;
          return;
        }
        if (s.decode_start == kPending) s.decode_start = s.index_req.done + spec_.block_index_latency_cycles;
        const int pro = std::min(stages - 1, s.ktiles);
        const Cycle need = pro > 0 ? index_ready(s, pro - 1) : s.index_req.done;
        if (!reached(need, now)) {
          s.wake = need;
          return;
        }
        counters_.index_wait_cycles += now - s.index_issued;
        if (s.ktiles == 0) {  // no kept block: the tile is zeros, only the epilogue runs
          s.mma_done = now;
          s.state = State::Epilogue;
          continue;
        }
        for (int st = 0; st < pro; ++st) issue_stage_load(s, st);
        s.state = State::Main;
        s.wake = kPending;
        return;
      }
      case State::Main: {
        const MemRequest& ld = s.loads[s.kt % stages];
        Cycle barrier = std::max(ld.done, s.barrier_ready);
        if (s.csr) barrier = std::max(barrier, s.l1_ready[std::size_t(s.kt % stages)]);
        if (!reached(barrier, now)) {
          s.wake = barrier;
          return;
        }
        const StallCause cause = s.first_ktile           ? StallCause::CtaBoundary
                                 : ld.done >= s.barrier_ready ? StallCause::Global
                                                           : StallCause::Sync;
        if (k.block_sparse && s.kt + stages - 1 < s.ktiles) {
          const Cycle ready = index_ready(s, s.kt + stages - 1);
          if (!reached(ready, now)) {  // the decoder has not reached this k-tile's blocks
            counters_.index_wait_cycles += ready - now;
            s.wake = ready;
            return;
          }
        }
        double stage_bytes = 0;
        for (const auto& run : ld.runs) stage_bytes += double(run.bytes) * run.rows;
        if (s.kt + stages - 1 < s.ktiles) issue_stage_load(s, s.kt + stages - 1);
        compute_ktile(s, now, cause, stage_bytes);
        s.first_ktile = false;
        if (++s.kt == s.ktiles) {
          s.state = State::Epilogue;
          s.wake = s.mma_done;
        }
        continue;
      }
      case State::Epilogue: {
        if (!reached(s.mma_done, now)) {
          s.wake = s.mma_done;
          return;
        }
        // Accumulators are staged through shared memory (write, then read) to coalesce.
        const double tile = double(k.map.cta_m) * k.map.cta_n *
                            (k.map.split_k > 1 ? 4 : output_bytes(k.op.dtype));
        smem_->write(now, tile);
        s.wake = smem_->write(now, tile);
        s.state = State::Staged;
        continue;
      }
      case State::Staged:
        if (!reached(s.wake, now)) return;
        issue_store(s);
        s.state = State::Storing;
        s.wake = kPending;
        return;
      case State::ReduceLoad:
        if (!reached(s.loads[0].done, now)) {
          s.wake = s.loads[0].done;
          return;
        }
        issue_store(s);
        s.state = State::Storing;
        s.wake = kPending;
        return;
      case State::Storing:
        last_write_done_ = std::max(last_write_done_, s.store.done);
        s.state = State::Retire;
        s.wake = s.store.link_done;
        continue;
      case State::Retire:
        if (!reached(s.wake, now)) return;
        s.state = State::Empty;
        counters_.ctas += 1;
        counters_.cta_cycles += now - s.started;
        return;
    }
  }
}

}  // namespace stcsim
