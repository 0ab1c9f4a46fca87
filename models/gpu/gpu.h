// The GPU top level: SMs, the CTA scheduler and the memory system, assembled from the
// resolved hardware sections. Its driver thread runs a list of GEMMs back to back in
// one simulation (the L2 keeps its contents between them) and records an OpResult
// for each.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "models/gpu/l2_policy.h"
#include "models/kernels/i_kernel.h"
#include "models/kernels/op_result.h"
#include "models/memory/memory_system.h"
#include "models/power/i_power.h"
#include "models/sm/cta_scheduler.h"
#include "models/sm/sm.h"
#include "models/ubench/microbenchmark.h"
#include "sim/core/section_config.h"

namespace stcsim {

class Gpu : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Gpu);
  // `gpu_name`: the preset or config file's name, for errors that say which GPU refused.
  // `light_kernels`: what runs leaves the tensor cores idle (stcsim ubench's chases,
  // copies and reads), so the SMs run at gpu.max_clock_mhz, not at a GEMM's clock_mhz.
  Gpu(sc_core::sc_module_name name, const HardwareSections& hw, const std::string& gpu_name,
      bool light_kernels = false);

  void set_ops(std::vector<GemmOp> ops) { ops_ = std::move(ops); }
  // Run these microbenchmarks (models/ubench) instead of the GEMMs (each flushes what its
  // measurement needs); their figures in ubench_results(), and the figures this GPU
  // cannot yield (a missing unit or instruction) in ubench_skipped().
  void set_microbenchmarks(std::vector<const IMicrobenchmark*> b) { ubench_ = std::move(b); }
  const std::vector<UbenchResult>& ubench_results() const { return ubench_results_; }
  const std::vector<UbenchSkip>& ubench_skipped() const { return ubench_skipped_; }
  const std::vector<OpResult>& results() const { return results_; }
  // Trace the named signals ("sm0.active_ctas", "mem.inflight_requests"; "all").
  void trace(sc_core::sc_trace_file* tf, const std::vector<std::string>& names);
  static std::vector<std::string> traceable_signals(int num_sms);

  double peak_tflops(const MmaKind& k) const;
  double peak_products_per_second(const MmaKind& k) const;  // real multiplies
  // What the L2 holds when each GEMM starts (models/gpu/l2_policy.h); flush by default.
  // mapping.policy exhaustive needs flush (each candidate starts from a flushed L2):
  // warm and repeat are InputErrors.
  void set_l2_policy(L2Policy p);
  // Under warm: start every GEMM with an empty L2 all the same (its dirty lines dropped,
  // their write-backs not charged), so a sparse GEMM and its dense twin meet the same
  // cache. Flush does more (drained, L1s emptied, same addresses).
  void set_cold_l2_per_op(bool on) { cold_l2_per_op_ = on; }
  // Reuse the result of an identical GEMM simulated earlier in the run (same kernel,
  // shape, batch, dtype, pattern, mapping, block map and L2 policy) instead of simulating
  // it again; transformer models repeat each layer's GEMMs in every block. Under flush and
  // repeat a GEMM's cycles do not depend on what ran before, so the reuse is exact. Under warm
  // they do: the key also holds the previous GEMM's, and the reuse is exact only up to
  // the L2 contents older GEMMs left and the write-backs still draining.
  void set_memoize(bool on) { memoize_ = on; }
  // Analytic mode (`stcsim run --mode analytic`): each op is planned as in a simulation
  // (kernel, mapping, occupancy) but its cycles are the kernel's closed-form estimate
  // (IKernel::estimate_cycles) plus its launches, and its energy comes from the work it
  // must do (products, compulsory bytes) instead of counted events: microseconds per op,
  // for screening; no memory, stall or utilisation stats.
  void set_analytic(bool on) { analytic_ = on; }
  // Steady-state mode (`stcsim run --mode steady`, models/sm/steady_state.h): a one-launch
  // kernel of uniform CTAs is simulated until its dispatches repeat with a period of whole
  // waves, then cut, and its time and counters are extrapolated over the periods left;
  // any other op, or one whose period does not settle, is simulated in full (its stats
  // say why). The extrapolation is exact when the state repeats exactly.
  void set_steady_state(bool on) { steady_ = on; }
  // Called after each op's result (simulated or memoized) with ops done and in all, from
  // the simulation's own thread: a progress line, never anything that changes the run.
  using OpDone = std::function<void(std::size_t done, std::size_t total)>;
  void set_on_op_done(OpDone f) { on_op_done_ = std::move(f); }
  KernelMapping mapping_for(const GemmOp& op) const;
  const GpuSpec& spec() const { return gpu_; }
  // The SM clock this run is at (ns and GB/s convert at it; seconds = cycles / it).
  double run_clock_mhz() const { return run_mhz_; }

  // Validate ops before simulating (dtype supported, mapping fits): throws InputError.
  void check_op(const GemmOp& op) const;

 private:
  void driver();
  void run_microbenchmarks();  // gpu_ubench.cpp
  class UbenchAccess;
  // Before a GEMM under flush: drain, empty the caches, first address (l2_policy.h).
  void flush_between_ops();
  // `on_dispatch`: called as each CTA is handed out (CtaScheduler::start).
  void run_kernel(const KernelLaunch& k, std::function<void(std::size_t)> on_dispatch = {});
  // A plan's launches back to back, each after the launch latency, untimed (the first
  // run of a GEMM under --l2 repeat).
  void run_launches(const KernelPlan& plan);
  Cycle launch_cycles() const;  // gpu.kernel_launch_ns at the run's clock
  struct Snapshot;
  // What steady-state mode did with one op (gpu_steady.cpp).
  struct SteadyOutcome {
    bool cut = false;
    double period_waves = 0, period_cycles = 0;
    std::int64_t periods = 0;
    std::size_t ctas_simulated = 0;
    std::string fallback;  // why it was simulated in full
  };
  // Run `k` under steady-state mode: cut and extrapolated if its period settles.
  void run_kernel_steady(const KernelLaunch& k, SteadyOutcome& out, Snapshot& period_growth);
  // Sets the steady-state stats of `r` (gpu_steady.cpp).
  static void report_steady(const SteadyOutcome& s, OpResult& r);
  std::uint64_t allocate(double bytes);
  const IKernel& kernel_for(const GemmOp& op) const;
  // `periods` x (`period_cycles`, `period_growth`) are added to the op's time and
  // counters (a steady-state cut; none by default).
  OpResult collect(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan, Cycle start,
                   Cycle end, double periods = 0, double period_cycles = 0,
                   const Snapshot* period_growth = nullptr) const;
  // Run `plan` of `op` from now and collect its result.
  OpResult simulate(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan);
  OpResult estimate(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan) const;
  // The fields of an op's result its plan and `cycles` set (collect and estimate add the
  // rest).
  OpResult planned_result(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan,
                          double cycles) const;
  // mapping.policy exhaustive: simulate the kernel's best candidates by its estimate, each
  // from a flushed L2, and keep the fastest (in seconds, at its own settled clock).
  OpResult simulate_fastest(const GemmOp& op, const IKernel& kernel, const KernelPlan& chosen);
  // What the op did, for the power model (from the record and the snapshots' differences).
  PowerActivity power_activity(const OpResult& r, const Snapshot& now, const Snapshot& s0) const;

  GpuSpec gpu_;
  double run_mhz_ = 0;  // GpuSpec::run_clock_mhz(light_kernels)
  SmSpec sm_;
  MappingRequest mapping_req_;
  std::unique_ptr<ITensorCore> tc_proto_;
  std::unique_ptr<ISharedMemory> smem_proto_;
  std::unique_ptr<ITma> tma_proto_;
  std::unique_ptr<IPower> power_;
  std::unique_ptr<MemorySystem> mem_;
  std::unique_ptr<CtaScheduler> sched_;
  std::unique_ptr<KernelEnv> env_;  // what kernels read of this GPU
  std::vector<std::unique_ptr<Sm>> sms_;
  std::vector<GemmOp> ops_;
  std::vector<const IMicrobenchmark*> ubench_;
  std::vector<UbenchResult> ubench_results_;
  std::vector<UbenchSkip> ubench_skipped_;
  std::vector<OpResult> results_;
  static constexpr std::uint64_t kFirstAddr = std::uint64_t(1) << 32;
  std::uint64_t next_addr_ = kFirstAddr;
  L2Policy l2_policy_ = L2Policy::kFlush;
  bool cold_l2_per_op_ = false;
  bool memoize_ = true;
  bool analytic_ = false;
  bool steady_ = false;
  OpDone on_op_done_;
  std::unordered_map<std::string, std::size_t> memo_;  // key -> index in results_

  struct Snapshot {
    double tensor = 0, smem = 0, l2 = 0, dram = 0, link = 0, index_wait = 0, cta_cycles = 0;
    double tensor_work = 0;  // the pipes' work_cycles (products), within `tensor`
    double cuda = 0, l1_sectors = 0, l1_hits = 0;
    MemoryCounters mem;
    StallCounters stalls;
    // this += k x (hi - lo), field by field (gpu_steady.cpp; a new field goes there too).
    void add_scaled(const Snapshot& hi, const Snapshot& lo, double k);
  };
  Snapshot snapshot() const;
  Snapshot start_snap_;
};

}  // namespace stcsim
