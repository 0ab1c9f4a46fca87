// One streaming multiprocessor: sub-cores (a warp scheduler and a tensor-core pipe
// each), a shared-memory port, and CTA slots running the multistage mainloop:
//   prologue: cp.async stages 0..S-2
//   k-tile t: wait for stage t and for every warp to pass the barrier, issue the
//             cp.async of stage t+S-1, then per k-sub: ldmatrix A/B fragments
//             (double-buffered) and the warp's mma instructions
//   epilogue: accumulators through shared memory to global memory
// One SystemC thread per SM advances all of its slots in slot order, so contention
// inside the SM is resolved the same way every run.
#pragma once
#include <memory>
#include <vector>

#include <systemc>

#include "models/common/timeline.h"
#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"
#include "models/sm/kernel_launch.h"
#include "models/sm/sm_spec.h"
#include "models/sm/warp_scheduler.h"
#include "models/smem/i_shared_memory.h"
#include "models/tensor_core/i_tensor_core.h"

namespace stcsim {

class CtaScheduler;

struct SmCounters {
  StallCounters stalls;
  double ctas = 0;
  // Block-sparse kernels: cycles CTAs waited on their block indices (fetch + decode)
  // before a stage load could issue, and the CTAs' summed lifetimes.
  double index_wait_cycles = 0, cta_cycles = 0;
  // CSR kernels: sectors of activation gathers looked up in the L1, and those that hit.
  double l1_sectors = 0, l1_hit_sectors = 0;
};

class Sm : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Sm);
  Sm(sc_core::sc_module_name name, int id, const SmSpec& spec, const ITensorCore& tc_proto,
     const ISharedMemory& smem_proto, MemorySystem& mem, CtaScheduler& sched);

  // Start running `k`; `done` is notified when this SM has no CTA left, and
  // last_write_done() then tells when its last store reaches the L2.
  void launch(const KernelLaunch* k, Cycle op_start);
  sc_core::sc_event done;
  Cycle last_write_done() const { return last_write_done_; }

  const ISharedMemory& smem() const { return *smem_; }
  const std::vector<std::unique_ptr<ITensorCore>>& pipes() const { return pipes_; }
  // FP32 FMA pipes (CUDA cores), one per sub-core: busy cycles of the CSR kernel.
  Cycle cuda_core_busy_cycles() const;
  const SmCounters& counters() const { return counters_; }
  sc_core::sc_signal<int> active_ctas{"active_ctas"};  // for VCD tracing
  bool trace_signals = false;

 private:
  enum class State { Empty, Launch, IndexFetch, Main, Epilogue, Staged, Storing, ReduceLoad, Retire };
  struct Slot {
    State state = State::Empty;
    CtaTask task;
    int kt = 0, ktiles = 0;
    std::vector<MemRequest> loads;  // ring of stages
    MemRequest store;
    std::vector<WarpState> warps;
    Cycle wake = 0;
    // Every warp has begun issuing the last k-sub of the previous k-tile: the point
    // where a CUTLASS mainloop waits on the next stage and syncs (its last k-sub's
    // mma overlap the next tile's first fragment loads).
    Cycle barrier_ready = 0;
    Cycle mma_done = 0;     // latest mma result
    bool first_ktile = true;
    // Block-sparse: the CTA's panel, its index request, and when decoding starts.
    const PanelPlan* panel = nullptr;
    MemRequest index_req;
    Cycle decode_start = 0, started = 0, index_issued = 0;
    std::vector<double> blocks_through;  // indices decoded before k-tile t is usable
    const CsrPanel* csr = nullptr;       // CSR kernel: the CTA's rows
    std::vector<Cycle> l1_ready;         // CSR: per stage buffer, when its L1 hits land
  };

  void run();
  void run_kernel();
  void start_cta(Slot& s, const CtaTask& t);
  // Advance one slot at the current cycle as far as it can go; new memory requests
  // are appended to `to_submit_`.
  void advance(Slot& s, Cycle now);
  void issue_stage_load(Slot& s, int kt);
  void issue_block_stage_load(Slot& s, int kt);
  void issue_index_load(Slot& s);
  void issue_csr_stage_load(Slot& s, int kt, Cycle now);
  void compute_csr_stage(Slot& s, Cycle barrier);
  // Block-sparse: when k-tile kt's indices are decoded (kPending before the fetch returns).
  Cycle index_ready(const Slot& s, int kt) const;
  void compute_ktile(Slot& s, Cycle barrier, StallCause cause, double fill_bytes);
  void issue_store(Slot& s);
  void issue_reduce_load(Slot& s);

  int id_;
  SmSpec spec_;
  MemorySystem& mem_;
  CtaScheduler& sched_;
  std::vector<std::unique_ptr<ITensorCore>> pipes_;
  std::unique_ptr<ISharedMemory> smem_;
  std::vector<Timeline> cuda_;       // per sub-core FP32 pipe
  std::unique_ptr<SectoredL2> l1_;   // tag store of the L1 data cache (null: no L1)
  const KernelLaunch* kernel_ = nullptr;
  Cycle op_start_ = 0;
  sc_core::sc_event launch_ev_;
  std::vector<Slot> slots_;
  std::vector<MemRequest*> to_submit_;
  Cycle last_write_done_ = 0;
  SmCounters counters_;
};

}  // namespace stcsim
