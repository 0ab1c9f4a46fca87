// One CTA of a kernel as the SM runs it. The SM's thread advances every resident CTA
// in slot order at each cycle it wakes; what a CTA does is its kernel's business.
//
// Contract: advance(now) moves the CTA as far as it can at cycle `now`, charging the
// SM's resources through its SmContext and submitting memory requests there, then sets
// wake() to the cycle it next needs attention (kPending while it waits on a request
// submitted in this pass: the SM advances it again, at the same cycle, once the memory
// system has timed it). It returns true once the CTA has retired, and never before its
// last store has left the SM.
#pragma once
#include <memory>
#include <vector>

#include "models/common/cta_phases.h"
#include "models/common/cycles.h"
#include "models/sm/sm_context.h"

namespace stcsim {

class CtaProgram {
 public:
  virtual ~CtaProgram() = default;
  virtual bool advance(Cycle now) = 0;
  Cycle wake() const { return wake_; }
  // Where a multistage CTA's phases began (start) and ended, for the CTA-phase
  // microbenchmark (the SM fills `sm`); a kernel without those phases leaves it empty.
  const CtaPhaseRecord* phases() const { return has_phases_ ? &phases_ : nullptr; }

 protected:
  Cycle wake_ = 0;
  CtaPhaseRecord phases_;
  bool has_phases_ = false;
};

// Which output tile, K range and work list a CTA covers; a kernel's plan fills the
// fields its CTAs read.
struct CtaTask {
  int tile_m = 0, tile_n = 0, split = 0, batch = 0;
  std::int64_t k_begin = 0, k_end = 0;
  int panel = 0;  // kernels with per-panel plans (block-sparse, CSR): the CTA's panel
};

// A kernel launch as the SM and the CTA scheduler see it: how many CTAs an SM holds,
// the CTAs in launch order, and how each one starts. Kernels (models/kernels) derive
// from it with the plan their CTAs read.
class KernelLaunch {
 public:
  virtual ~KernelLaunch() = default;
  int ctas_per_sm = 1;
  std::vector<CtaTask> ctas;  // in launch (rasterization) order
  // Start CTA `t` now in resident slot `slot` of an SM (warps take sub-cores by their
  // SM-wide slot, slot * warps + w).
  virtual std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot,
                                                SmContext& sm) const = 0;
  // Called as the launch starts, each time it runs (`--l2 repeat` runs a plan twice):
  // resets what its CTAs write back into the launch while they run.
  virtual void begin_run() const {}
};

}  // namespace stcsim
