// One streaming multiprocessor: sub-cores (a warp scheduler with a tensor-core pipe and
// an FP32 pipe each), a shared-memory port, an L1 tag store, a TMA unit (Hopper), and
// CTA slots. It runs
// whatever kernel it is given: the kernel's CTA programs (cta_program.h) do the work,
// the SM takes CTAs from the scheduler, advances them and passes their memory requests
// on. One SystemC thread per SM advances all of its slots in slot order, so contention
// inside the SM is resolved the same way every run.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "models/common/timeline.h"
#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"
#include "models/sm/cta_program.h"
#include "models/sm/request_pool.h"
#include "models/sm/sm_context.h"
#include "models/sm/sm_counters.h"
#include "models/sm/sm_spec.h"
#include "models/smem/i_shared_memory.h"
#include "models/tensor_core/i_tensor_core.h"
#include "models/tma/i_tma.h"

namespace stcsim {

class CtaScheduler;

class Sm : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Sm);
  Sm(sc_core::sc_module_name name, int id, const SmSpec& spec, const ITensorCore& tc_proto,
     const ISharedMemory& smem_proto, const ITma& tma_proto, MemorySystem& mem,
     CtaScheduler& sched);

  // Start running `k`; `done` is notified when this SM has no CTA left, and
  // last_write_done() then tells when its last store reaches the L2.
  void launch(const KernelLaunch* k, Cycle op_start);
  sc_core::sc_event done;
  Cycle last_write_done() const { return last_write_done_; }
  // Drop the L1's lines (a flush between GEMMs, models/gpu/l2_policy.h).
  void invalidate_l1() {
    if (l1_) l1_->invalidate_all();
  }

  const ISharedMemory& smem() const { return *smem_; }
  const std::vector<std::unique_ptr<ITensorCore>>& pipes() const { return pipes_; }
  // FP32 FMA pipes (CUDA cores), one per sub-core: busy cycles of CUDA-core kernels.
  Cycle cuda_core_busy_cycles() const;
  const SmCounters& counters() const { return counters_; }
  sc_core::sc_signal<int> active_ctas{"active_ctas"};  // for VCD tracing
  bool trace_signals = false;
  // Where retiring CTAs' phases go (the CTA-phase microbenchmark); null: not kept.
  std::vector<CtaPhaseRecord>* phase_log = nullptr;

 private:
  struct Slot {
    std::unique_ptr<CtaProgram> cta;  // null: the slot is free
    Cycle started = 0;
  };

  void run();
  void run_kernel();

  int id_;
  SmSpec spec_;
  MemorySystem& mem_;
  CtaScheduler& sched_;
  std::vector<std::unique_ptr<ITensorCore>> pipes_;
  std::unique_ptr<ISharedMemory> smem_;
  std::unique_ptr<ITma> tma_;
  std::vector<Timeline> cuda_;      // per sub-core FP32 pipe
  std::vector<IssuePort> issue_;    // per sub-core warp-instruction issue port
  std::unique_ptr<SectoredL2> l1_;  // tag store of the L1 data cache (null: no L1)
  const KernelLaunch* kernel_ = nullptr;
  Cycle op_start_ = 0;
  sc_core::sc_event launch_ev_;
  RequestPool request_pool_;  // before slots_: CTAs hand their requests' storage to it
  std::vector<Slot> slots_;
  std::vector<MemRequest*> to_submit_;
  Cycle last_write_done_ = 0;
  SmCounters counters_;
};

}  // namespace stcsim
