// Kind "tensor_core": the matrix pipeline of one SM sub-core.
//
// Contract: `issue(ready, kind)` accepts one warp-level mma (dense) or mma.sp (N:M
// sparse A) instruction no earlier than cycle `ready` and no earlier than the pipe's
// initiation interval for that kind allows after the previous instruction; it returns
// the issue cycle. The result is available `latency(kind)` cycles after issue. An
// implementation must not accept a kind it does not support (`supports`).
// `dot_unit(kind)` may hand functional mode the implementation's own dot-product unit
// for that kind's values (default: none, the golden model computes them).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "models/common/cycles.h"
#include "models/common/mma_kind.h"
#include "models/functional/dot_unit.h"

namespace stcsim {

class ITensorCore {
 public:
  virtual ~ITensorCore() = default;
  virtual bool supports(const MmaKind& k) const = 0;
  // Why `k` is not supported (empty when it is).
  virtual std::string unsupported_reason(const MmaKind& k) const = 0;
  virtual double initiation_interval(const MmaKind& k) const = 0;
  virtual int latency(const MmaKind& k) const = 0;
  // Issues one instruction ready at `ready`; returns its issue cycle. A pipe is in order:
  // issue cycles never decrease from one call to the next (the warp scheduler relies on it).
  virtual Cycle issue(Cycle ready, const MmaKind& k) = 0;
  // `issue` of `n` instructions of kind `k` in order, instruction j ready at ready[j]:
  // start[j] is what issue returned, free_before[j] what free_at said just before it. A
  // pipe that keeps its reserved stretches (mma_pipeline) may instead place the series in
  // idle stretches before free_at, each instruction at or after the one before it (the
  // series is in program order; a co-resident CTA's k-tile, reserved earlier at its own
  // barrier, may have left the gaps).
  // reuse[j] (mma.sync / mma.sp; null: not known) says which register operands instruction
  // j finds in the registers its warp's previous mma read (kReuseA, kReuseB), which a pipe
  // with a register operand path does not read again. One call per k-sub instead of two
  // per instruction; implementations may loop faster.
  static constexpr std::uint8_t kReuseA = 1, kReuseB = 2;
  // Whether issue_series reads `reuse` (a pipe with a register operand path).
  virtual bool charges_operand_reads() const { return false; }
  virtual void issue_series(const Cycle* ready, std::size_t n, const MmaKind& k,
                            const std::uint8_t* /*reuse*/, Cycle* start, Cycle* free_before) {
    for (std::size_t j = 0; j < n; ++j) {
      free_before[j] = free_at();
      start[j] = issue(ready[j], k);
    }
  }
  // `bytes` of fragments (ldmatrix results) written into a warp's registers, landing at
  // cycle `landed`; a pipe whose register path carries them charges them there (the
  // default, and a pipe without such a path, ignores them). Returns the cycles the pipe
  // stood idle (from `not_before` on) before the writes began: the wait for the fragments
  // that the next mma would otherwise have been charged with.
  // `writes_end` (when given) receives where the writes end: the warp's next mma may not
  // issue before it (0 where nothing was charged).
  virtual Cycle write_registers(Cycle /*landed*/, double /*bytes*/, Cycle /*not_before*/,
                                Cycle* writes_end = nullptr) {
    if (writes_end) *writes_end = 0;
    return 0;
  }
  // No instruction issued from now on is ready before `t` (the SM's simulated time at a
  // barrier): a pipe that fills gaps may forget the stretches that end by then.
  virtual void forget_before(Cycle /*t*/) {}
  // Whether write_registers charges anything (kernels skip the bookkeeping where not).
  virtual bool charges_fragment_writes() const { return false; }
  virtual Cycle busy_cycles() const = 0;
  // The cycles of busy_cycles() the datapath spent on its instructions at their kinds'
  // intervals, without what a register path added (operand reads beyond the interval,
  // fragment writes): what products and their energy are counted from.
  virtual Cycle work_cycles() const { return busy_cycles(); }
  // The accumulation model of its arithmetic (a models/numerics preset name), used when
  // the simulator computes output values.
  virtual std::string numerics_preset() const = 0;
  // The earliest cycle the next instruction could issue.
  virtual Cycle free_at() const = 0;
  // A fresh pipe with the same parameters (one per sub-core).
  virtual std::unique_ptr<ITensorCore> clone_empty() const = 0;
  // The unit that computes this kind's values in functional mode; empty: the golden model.
  virtual functional::DotUnit dot_unit(const MmaKind& /*k*/) const { return {}; }
};

}  // namespace stcsim
