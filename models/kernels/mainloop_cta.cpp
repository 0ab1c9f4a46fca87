#include "models/kernels/mainloop_cta.h"

#include <algorithm>

namespace stcsim {

MainloopCta::MainloopCta(const CtaTask& t, int stages, int ktiles, SmContext& sm)
    : sm_(sm),
      task_(t),
      ktiles_(ktiles),
      loads_(sm.requests.take(std::size_t(std::max(1, stages)))) {
  wake_ = now_cycles() + sm.spec.cta_launch_cycles;
}

void MainloopCta::issue_prologue(Cycle now) {
  // The loop's copies run S-1 stages ahead; without them every stage is filled here.
  const int stages = int(loads_.size()) - ((parts_ & kMainloopCopy) ? 1 : 0);
  for (int st = 0; st < std::min(stages, ktiles_); ++st) {
    issue_stage_load(st, now);
    if (uses_fill_bytes()) prologue_bytes_ += loads_[std::size_t(st)].bytes();
  }
}

bool MainloopCta::advance(Cycle now) {
  const int stages = int(loads_.size());
  while (true) {
    switch (state_) {
      case State::Launch:
        if (!reached(wake_, now)) return false;
        phases_.start = now;  // its first instruction, after the CTA's launch
        has_phases_ = true;
        state_ = State::Start;
        continue;
      case State::Start:
        switch (start(now)) {
          case Start::Waiting:
            return false;
          case Start::NoWork:
            mma_done_ = now;
            phases_.prologue_done = now;
            state_ = State::Epilogue;
            continue;
          case Start::Ready:
            state_ = State::Main;
            wake_ = kPending;
            return false;
        }
        return false;
      case State::Main: {
        const bool copy = (parts_ & kMainloopCopy) != 0;
        const MemRequest& ld = loads_[std::size_t(kt_ % stages)];
        Cycle landed = ld.done;
        // A loop without all its parts waits once for every prologue stage (the harness's
        // cp.async wait-all and barrier before such a loop).
        constexpr unsigned kLoop = kMainloopCopy | kMainloopBarrier | kMainloopFragments;
        if (first_ktile_ && (parts_ & kLoop) != kLoop)
          for (const MemRequest& l : loads_) landed = std::max(landed, l.done);
        const Cycle barrier = std::max({landed, barrier_ready_, stage_ready(kt_ % stages)});
        if (!reached(barrier, now)) {
          wake_ = barrier;
          return false;
        }
        if (first_ktile_) phases_.prologue_done = now;  // every stage waited on has landed
        const StallCause cause = first_ktile_                ? StallCause::CtaBoundary
                                 : ld.done >= barrier_ready_ ? StallCause::Global
                                                             : StallCause::Sync;
        const int next = copy ? kt_ + stages - 1 : ktiles_;
        if (next < ktiles_ && !may_load(next, now)) return false;
        // Without copies only the prologue's stages were written to shared memory.
        const double stage_bytes = uses_fill_bytes() && (copy || kt_ < stages) ? ld.bytes() : 0;
        // The copies this k-tile issues; the first also carries the prologue's, issued
        // before it in program order (only a kernel whose copies come first reads these).
        copy_bytes_ = first_ktile_ ? prologue_bytes_ : 0;
        if (next < ktiles_) {
          issue_stage_load(next, now);
          if (uses_fill_bytes()) copy_bytes_ += loads_[std::size_t(next % stages)].bytes();
        }
        compute_ktile(now, cause, stage_bytes);
        first_ktile_ = false;
        if (++kt_ == ktiles_) {
          state_ = State::Epilogue;
          wake_ = mma_done_;
        }
        continue;
      }
      case State::Epilogue: {
        if (!reached(mma_done_, now)) {
          wake_ = mma_done_;
          return false;
        }
        phases_.loop_done = now;
        state_ = State::Staged;
        if (!stages_output()) {  // stored from the registers: nothing on the port
          wake_ = now;
          continue;
        }
        // Staged: written by the warps' stores, read back at full width (16 B a thread).
        const double tile = accumulator_tile_bytes();
        sm_.smem.store(now, tile, staging_store_lane_bytes());
        wake_ = sm_.smem.write(now, tile);
        continue;
      }
      case State::Staged:
        if (!reached(wake_, now)) return false;
        issue_store(store_);
        sm_.submit(store_);
        state_ = State::Storing;
        wake_ = kPending;
        return false;
      case State::Storing:
        sm_.last_write_done = std::max(sm_.last_write_done, store_.done);
        state_ = State::Retire;
        wake_ = store_.link_done;
        continue;
      case State::Retire:
        if (!reached(wake_, now)) return false;
        // Every stage's load was waited on: their storage goes to the SM's next CTAs.
        sm_.requests.give(loads_);
        phases_.end = now;
        return true;
    }
  }
}

}  // namespace stcsim
