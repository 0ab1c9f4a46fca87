// The CTA of a multistage mainloop, the schedule every GEMM-like kernel here follows
// (CUTLASS's multistage, Sputnik's staged SpMM):
//   start:    what must precede the first load (a kernel may fetch indices first),
//             then cp.async of stages 0..S-2
//   k-tile t: wait for stage t and for every warp to pass the barrier, issue the load
//             of stage t+S-1, then compute on stage t
//   epilogue: accumulators through shared memory (write, then read) to global memory,
//             or straight from the registers where the kernel does not stage them
// A kernel supplies its loads, its compute and its store; the state machine, the
// stage ring and the barrier bookkeeping live here once.
#pragma once
#include <vector>

#include "models/kernels/gemm_tensors.h"
#include "models/mapping/kernel_mapping.h"
#include "models/sm/cta_program.h"
#include "models/sm/stall_counters.h"

namespace stcsim {

class MainloopCta : public CtaProgram {
 public:
  bool advance(Cycle now) final;

 protected:
  MainloopCta(const CtaTask& t, int stages, int ktiles, SmContext& sm);

  enum class Start { Waiting, Ready, NoWork };
  // Called from the CTA's launch on until it returns Ready (the prologue is issued:
  // issue_prologue) or NoWork (no k-tile: only the epilogue runs); Waiting sets wake_.
  virtual Start start(Cycle now) = 0;
  virtual void issue_stage_load(int kt, Cycle now) = 0;
  // Besides its load and the barrier, when stage kt can be computed on.
  virtual Cycle stage_ready(int /*kt*/) const { return 0; }
  // Whether the load of k-tile kt may be issued now (false: wake_ is set).
  virtual bool may_load(int /*kt*/, Cycle /*now*/) { return true; }
  // Compute k-tile kt_ from `barrier` on; `fill_bytes` of its stage were written to
  // shared memory. Sets barrier_ready_ and mma_done_.
  virtual void compute_ktile(Cycle barrier, StallCause cause, double fill_bytes) = 0;
  // Whether compute_ktile reads its `fill_bytes` (0 is passed when not: summing a gather
  // stage's runs, a run per missed line, long after they were written, is host time).
  virtual bool uses_fill_bytes() const { return true; }
  virtual double accumulator_tile_bytes() const = 0;  // staged through shared memory
  // Bytes each thread's st.shared writes while staging it (a warp's store narrower than
  // the port still takes a whole port cycle): 16, a full-width vector, unless the kernel
  // says otherwise.
  virtual int staging_store_lane_bytes() const { return 16; }
  // Whether the accumulators go through shared memory at all (false: each thread stores its
  // own registers to global memory, as Sputnik's OutputTile does).
  virtual bool stages_output() const { return true; }
  virtual void issue_store(MemRequest& store) = 0;

  void issue_prologue(Cycle now);

  SmContext& sm_;
  CtaTask task_;
  // MainloopPart bits this CTA runs (all, but for the mainloop-anatomy benchmark):
  // without copies the prologue fills every stage and the loop loads nothing; without
  // the barrier each warp goes on to the next k-tile as soon as it is through this one.
  unsigned parts_ = kMainloopAll;
  int kt_ = 0, ktiles_ = 0;
  std::vector<MemRequest> loads_;  // ring of stages
  // Every warp has begun issuing the last k-sub of the previous k-tile: the point
  // where a CUTLASS mainloop waits on the next stage and syncs (its last k-sub's
  // mma overlap the next tile's first fragment loads). Without the barrier part: the
  // first warp to get there.
  Cycle barrier_ready_ = 0;
  Cycle mma_done_ = 0;  // latest result
  // Bytes of the stage load the current k-tile issued at its top (0: none), the first
  // k-tile's with the prologue's: what a kernel whose copies are in its k-tile prelude puts
  // on the LSU's path there (KernelMapping::loop).
  double copy_bytes_ = 0;
  double prologue_bytes_ = 0;

 private:
  enum class State { Launch, Start, Main, Epilogue, Staged, Storing, Retire };
  State state_ = State::Launch;
  bool first_ktile_ = true;
  MemRequest store_;
};

}  // namespace stcsim
