#include "models/kernels/warp_specialized_cta.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace stcsim {

namespace {
// A time that another agent of the CTA has yet to fix (a load not issued, a stage not
// released).
constexpr Cycle kUnknown = std::numeric_limits<Cycle>::infinity();
}  // namespace

void WsLaunch::begin_run() const {
  std::fill(arrived.begin(), arrived.end(), std::numeric_limits<Cycle>::infinity());
}

std::unique_ptr<CtaProgram> WsLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<WsCta>(*this, t, sm);
}

WsCta::WsCta(const WsLaunch& k, const CtaTask& t, SmContext& sm) : k_(k), sm_(sm) {
  for (std::size_t i = std::size_t(t.panel); i < k.tiles.size(); i += std::size_t(k.grid))
    tiles_.push_back(i);
  first_load_.assign(1, 0);
  for (std::size_t i : tiles_) {
    const CtaTask& tile = k.tiles[i];
    first_load_.push_back(first_load_.back() +
                          (tile.k_end - tile.k_begin + k.map.cta_k - 1) / k.map.cta_k);
  }
  const auto stages = std::size_t(k.map.stages);
  holds_.assign(stages, -1);
  full_.assign(stages, kUnknown);
  empty_.assign(stages, 0);
  in_flight_.assign(stages, false);
  loads_.resize(stages);
  consumers_.resize(std::size_t(k.consumers));
  for (std::size_t c = 0; c < consumers_.size(); ++c)
    consumers_[c].tile = c;  // tiles c, c + consumers, ...
  wake_ = now_cycles() + sm.spec.cta_launch_cycles;
}

bool WsCta::produce(Cycle now) {
  const std::int64_t total = first_load_.back();
  const auto stages = std::int64_t(holds_.size());
  bool progressed = false;
  while (next_load_ < total) {
    const auto s = std::size_t(next_load_ % stages);
    if (holds_[s] >= 0 && !reached(empty_[s], now)) break;
    if (submit_at_ < 0) submit_at_ = sm_.tma.issue(now, k_.work.boxes_per_stage);
    if (!reached(submit_at_, now)) break;
    submit_at_ = -1;
    while (next_load_ >= first_load_[load_tile_ + 1]) ++load_tile_;
    const CtaTask& t = k_.tiles[tiles_[load_tile_]];
    const std::int64_t k0 = t.k_begin + (next_load_ - first_load_[load_tile_]) * k_.map.cta_k;
    if (k_.map.cluster_m * k_.map.cluster_n > 1) {
      // This CTA reads its share of the B tile it has in common with its cluster's column
      // (cluster_m CTAs) and of the A tile it has in common with its row (cluster_n), and
      // receives the rest from its peers' multicast.
      const auto [m0, n0, a_rows, b_rows] = tile_extent(k_, t);
      const auto part = [](std::int64_t rows, int c, int at) {
        const std::int64_t share = (rows + c - 1) / c;
        const std::int64_t first = std::min(rows, share * at);
        return RowShare{first, std::min(rows - first, share)};
      };
      const RowShare b = part(b_rows, k_.map.cluster_m, t.tile_m % k_.map.cluster_m);
      const RowShare a = part(a_rows, k_.map.cluster_n, t.tile_n % k_.map.cluster_n);
      const StageRowBytes row = tile_stage_load(k_, t, k0, loads_[s], b, a);
      loads_[s].multicast_bytes =
          double(b_rows - b.count) * row.b + double(a_rows - a.count) * row.a;
    } else {
      tile_stage_load(k_, t, k0, loads_[s]);
    }
    sm_.submit(loads_[s]);
    holds_[s] = next_load_++;
    full_[s] = empty_[s] = kUnknown;
    in_flight_[s] = true;
    submitted_ = progressed = true;
  }
  return progressed;
}

void WsCta::issue_kblock(Consumer& c, int stage, Cycle now) {
  const WsWork& w = k_.work;
  // The stage's TMA writes take the port in slices, one ahead of each wgmma's operand
  // reads (see the header).
  const MemRequest& load = loads_[std::size_t(stage)];
  const double fill_slice = (load.bytes() + load.multicast_bytes) / w.wgmma_per_kblock;
  auto& pipes = sm_.pipes;
  const int nsub = int(pipes.size());
  const int lat = pipes[0]->latency(w.wgmma);
  const double drain = lat - pipes[0]->initiation_interval(w.wgmma);
  Cycle done = 0;
  std::vector<Cycle>& free_before = free_before_;
  free_before.resize(pipes.size());
  for (int i = 0; i < w.wgmma_per_kblock; ++i) {
    Cycle ready = now;
    for (std::size_t p = 0; p < pipes.size(); ++p) {
      free_before[p] = std::max(pipes[p]->free_at(), sm_.op_start);
      ready = std::max(ready, pipes[p]->free_at());
    }
    sm_.smem.fill(now, fill_slice);  // queues right behind the previous reads
    const auto span = sm_.smem.matrix_read(ready, w.operand_bytes);
    // The warpgroup's four warps run their m16 slices on sub-cores w mod nsub.
    Cycle last = span.start;
    for (int warp = 0; warp < 4; ++warp) {
      const auto p = std::size_t(warp % nsub);
      const Cycle t = pipes[p]->issue(span.start, w.wgmma);
      if (warp < nsub && t > free_before[p]) {
        // Idle pipe time: the consumer not issuing yet, then the operand path.
        const Cycle waited = std::max<Cycle>(0, std::min(t, now) - free_before[p]);
        sm_.counters.stalls.add(c.waited, waited);
        sm_.counters.stalls.add(StallCause::Operand, t - free_before[p] - waited);
      }
      last = std::max(last, t);
    }
    done = std::max({done, last + lat, span.done + drain});
  }
  // wait_group 1: the previous k-block's group has completed; its stage is released.
  c.ready = now;
  if (c.prev_stage >= 0) {
    c.ready = std::max(now, c.prev_done);
    empty_[std::size_t(c.prev_stage)] = c.ready;
  }
  c.prev_done = done;
  c.prev_stage = stage;
  if (++c.kb == first_load_[c.tile + 1] - first_load_[c.tile]) {
    // wait_group 0 before the epilogue; the last stage is released when it completes.
    empty_[std::size_t(stage)] = done;
    c.prev_stage = -1;
    c.phase = Consumer::Phase::Drain;
    turn_ = c.tile + 1;  // pingpong: the next tile's mainloop may start now
    turn_at_ = now;
  }
}

void WsCta::stage_output(Consumer& c, Cycle now) {
  c.wake = sm_.smem.write(
      now, output_tile_bytes());  // accumulators, converted, into the epilogue buffer
  c.phase = Consumer::Phase::Staged;
}

bool WsCta::reduces(std::size_t unit) const {
  return !k_.prev_slice.empty() && (k_.prev_slice[unit] >= 0 || !k_.last_slice[unit]);
}

void WsCta::workspace_tile(const Consumer& c, bool write, MemRequest& r) const {
  // Every slice of a tile sums into the one fp32 tile of the workspace (the deterministic
  // reduction), from and to the registers.
  CtaTask t = k_.tiles[tiles_[c.tile]];
  t.split = 0;
  tile_store(k_, t, true, r);
  r.write = write;
}

void WsCta::store_partial(Consumer& c) {
  workspace_tile(c, true, c.store);
  sm_.submit(c.store);
  submitted_ = true;
}

Cycle WsCta::partial_in_l2(const Consumer& c) {
  // A write's done time is when the slices have taken the data that has arrived; the
  // last bytes leave the SM's link at link_done.
  return std::max(c.store.done, c.store.link_done);
}

Cycle WsCta::lock_seen(const Consumer& c) const {
  // The lock is seen by the first poll issued after the previous slice arrived; polls
  // go out back to back, one L2 round trip each, from when the consumer began waiting.
  const Cycle arrived = k_.arrived[std::size_t(k_.prev_slice[tiles_[c.tile]])];
  if (arrived == kUnknown) return kUnknown;
  const Cycle p = k_.lock_poll_cycles;
  const Cycle polls = std::max<Cycle>(0, std::ceil((arrived - c.lock_from) / p));
  return c.lock_from + (polls + 1) * p;
}

bool WsCta::reduce_slice(Consumer& c, Cycle now) {
  using Phase = Consumer::Phase;
  const std::size_t unit = tiles_[c.tile];
  switch (c.phase) {
    case Phase::Lock: {
      const Cycle seen = lock_seen(c);
      if (seen == kUnknown) {
        // Not arrived yet: poll again one round trip later.
        c.wake = now + k_.lock_poll_cycles;
        return false;
      }
      if (!reached(seen, now)) {
        c.wake = seen;
        return false;
      }
      workspace_tile(c, false, c.partial);
      sm_.submit(c.partial);
      submitted_ = true;
      c.phase = Phase::Partial;
      return true;
    }
    case Phase::Partial:
      if (c.partial.done == kPending || !reached(c.partial.done, now)) return false;
      if (k_.last_slice[unit]) {
        // The sum is in the accumulators: the epilogue as without split-K.
        if (!reached(c.buffer_free, now)) return false;
        stage_output(c, now);
        return true;
      }
      store_partial(c);
      c.phase = Phase::Arrive;
      return true;
    case Phase::Arrive: {
      if (c.store.done == kPending) return false;
      // The lock's increment follows the stores' fence: the slice arrives when its whole
      // partial has left the SM over its link and is in the L2, and its consumer goes on
      // from then.
      const Cycle in_l2 = partial_in_l2(c);
      k_.arrived[unit] = in_l2;
      if (!reached(in_l2, now)) return false;
      sm_.last_write_done = std::max(sm_.last_write_done, in_l2);
      c.tile += consumers_.size();
      c.kb = 0;
      c.waited = StallCause::CtaBoundary;
      c.phase = Phase::Main;
      return true;
    }
    default:
      return false;
  }
}

bool WsCta::consume(Consumer& c, Cycle now) {
  using Phase = Consumer::Phase;
  switch (c.phase) {
    case Phase::Main: {
      if (c.tile >= tiles_.size()) {
        c.phase = Phase::Done;
        return true;
      }
      const std::int64_t load = first_load_[c.tile] + c.kb;
      const int s = int(load % std::int64_t(holds_.size()));
      if (holds_[std::size_t(s)] != load || !reached(full_[std::size_t(s)], now)) {
        if (c.kb > 0) c.waited = StallCause::Global;
        return false;
      }
      if (!reached(c.ready, now)) {
        c.waited = StallCause::Dependency;
        return false;
      }
      if (consumers_.size() > 1 && c.kb == 0 && (turn_ != c.tile || !reached(turn_at_, now))) {
        c.waited = StallCause::Sync;
        return false;
      }
      issue_kblock(c, s, now);
      return true;
    }
    case Phase::Drain:
      if (!reached(c.prev_done, now)) return false;
      if (reduces(tiles_[c.tile])) {
        // A K slice of a split tile: the first stores its partial and arrives; the others
        // wait for the slice before them.
        c.lock_from = now;
        if (k_.prev_slice[tiles_[c.tile]] < 0) {
          store_partial(c);
          c.phase = Phase::Arrive;
        } else {
          c.phase = Phase::Lock;
        }
        return true;
      }
      if (!reached(c.buffer_free, now)) return false;
      stage_output(c, now);
      return true;
    case Phase::Lock:
    case Phase::Partial:
    case Phase::Arrive:
      return reduce_slice(c, now);
    case Phase::Staged:
      if (!reached(c.wake, now)) return false;
      c.wake = sm_.tma.issue(now, 1);
      c.phase = Phase::Issue;
      return true;
    case Phase::Issue:
      if (!reached(c.wake, now)) return false;
      sm_.smem.write(now, output_tile_bytes());  // the TMA store reads the buffer out: port time
      tile_store(k_, k_.tiles[tiles_[c.tile]], false, c.store);
      sm_.submit(c.store);
      submitted_ = true;
      c.phase = Phase::Storing;
      return true;
    case Phase::Storing:
      if (c.store.done == kPending) return false;
      sm_.last_write_done = std::max(sm_.last_write_done, c.store.done);
      c.buffer_free = c.store.link_done;
      c.tile += consumers_.size();
      c.kb = 0;
      c.waited = StallCause::CtaBoundary;
      c.phase = Phase::Main;
      return true;
    case Phase::Done:
      return false;
  }
  return false;
}

Cycle WsCta::next_event(const Consumer& c) const {
  using Phase = Consumer::Phase;
  switch (c.phase) {
    case Phase::Main: {
      if (c.tile >= tiles_.size()) return kUnknown;
      const std::int64_t load = first_load_[c.tile] + c.kb;
      const auto s = std::size_t(load % std::int64_t(holds_.size()));
      if (holds_[s] != load) return kUnknown;
      Cycle t = std::max(c.ready, full_[s]);
      if (consumers_.size() > 1 && c.kb == 0)
        t = turn_ == c.tile ? std::max(t, turn_at_) : kUnknown;
      return t;
    }
    case Phase::Drain:
      return reduces(tiles_[c.tile]) ? c.prev_done : std::max(c.prev_done, c.buffer_free);
    case Phase::Lock: {
      const Cycle seen = lock_seen(c);
      return seen == kUnknown ? c.wake : seen;
    }
    case Phase::Partial:
      return c.partial.done == kPending
                 ? kUnknown
                 : std::max(c.partial.done, k_.last_slice[tiles_[c.tile]] ? c.buffer_free : 0);
    case Phase::Arrive:
      return c.store.done == kPending ? kUnknown : partial_in_l2(c);
    case Phase::Staged:
    case Phase::Issue:
      return c.wake;
    default:
      return kUnknown;
  }
}

bool WsCta::advance(Cycle now) {
  if (!launched_) {
    if (!reached(wake_, now)) return false;
    launched_ = true;
  }
  submitted_ = false;
  for (std::size_t s = 0; s < loads_.size(); ++s)
    if (in_flight_[s] && loads_[s].done != kPending) {
      full_[s] = sm_.tma.observed(loads_[s].done);
      in_flight_[s] = false;
    }
  for (bool progress = true; progress;) {
    progress = produce(now);
    for (auto& c : consumers_)
      while (consume(c, now)) progress = true;
  }
  if (submitted_) {
    wake_ = kPending;  // the SM advances this CTA again once its requests are timed
    return false;
  }
  bool finished = true;
  Cycle stores = 0;
  for (const auto& c : consumers_) {
    finished = finished && c.phase == Consumer::Phase::Done;
    stores = std::max(stores, c.buffer_free);
  }
  if (finished) {
    wake_ = stores;  // retire once the last store has left the SM
    return reached(stores, now);
  }
  Cycle next = kUnknown;
  const std::int64_t total = first_load_.back();
  if (next_load_ < total) {
    const auto s = std::size_t(next_load_ % std::int64_t(holds_.size()));
    Cycle t = holds_[s] >= 0 ? empty_[s] : now;
    if (submit_at_ >= 0) t = std::max(t, submit_at_);
    next = std::min(next, t);
  }
  for (const auto& c : consumers_) next = std::min(next, next_event(c));
  if (next == kUnknown) throw std::logic_error("warp-specialized CTA waits on nothing");
  wake_ = next;
  return false;
}

}  // namespace stcsim
