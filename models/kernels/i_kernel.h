// A kernel: one way of running a GEMM on the GPU (CUTLASS keeps one mainloop class per
// variant; so do we). Implementations register by name at static-init time
// (REGISTER_KERNEL) and are listed by `stcsim components --kind kernel`; the mapping
// names the kernel (`mapping.kernel: auto | <name>`), never the workload.
//
// Contract: a kernel says whether it can run an op (cannot_run) and whether `auto`
// picks it (auto_pick, asked in descending auto_priority); for an op it can run it
// chooses its mapping and occupancy, allocates its tensors and returns its launches
// in order (plan), each owning its launch plan and creating its CTAs' programs
// (models/sm/cta_program.h); after the run it adds what only it knows to the op's
// result (report). It never asks which other kernel exists, and the SM never asks which
// kernel it runs.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/gemm_op.h"
#include "models/kernels/op_result.h"
#include "models/mapping/kernel_mapping.h"
#include "models/sm/cta_program.h"
#include "models/sm/sm_counters.h"
#include "models/sm/sm_spec.h"
#include "models/smem/i_shared_memory.h"
#include "models/tensor_core/i_tensor_core.h"
#include "models/tma/i_tma.h"
#include "sim/core/param.h"

namespace stcsim {

// What a kernel may read of the GPU it runs on.
struct KernelEnv {
  int num_sms = 0;
  double clock_mhz = 0;
  const SmSpec& sm;
  const ITensorCore& tc;
  const ISharedMemory& smem;
  const ITma& tma;
  const MappingRequest& request;
  // Memory rates for the mapping chooser.
  double l2_bytes_per_cycle = 0, dram_bytes_per_cycle = 0, l2_hit_latency = 0;
  // The preset's (or config file's) name, for errors that say which GPU refused.
  std::string gpu_name;

  // The chooser's view of this GPU for instructions of `kind`.
  ChooserHardware chooser(const MmaKind& kind) const;
  // Peak rates of instruction `kind` on every pipe of every SM (0 when unsupported): each
  // sub-core's pipe runs its slice of the instruction (all of an mma.sync, the m16 rows of
  // a wgmma). Dense-equivalent: an mma.sp counts the FMA of the dense GEMM it stands for.
  double fma_per_cycle_per_sm(const MmaKind& kind) const;
  double peak_tflops(const MmaKind& kind) const;
  double peak_products_per_second(const MmaKind& kind) const;  // real multiplies
  // The CUDA cores' FP32 FMA rate (every lane of every sub-core, every SM): the peak of
  // the CUDA-core kernels.
  double cuda_core_fma_per_second() const {
    return double(sm.fp32_lanes_per_sub_core) * sm.sub_cores * num_sms * clock_mhz * 1e6;
  }
};

// Device memory for the op's tensors, like cudaMalloc (the GPU owns the address space).
using Allocate = std::function<std::uint64_t(double bytes)>;

// What the SMs did during an op (differences of their counters), for report().
struct SmActivity {
  double index_wait_cycles = 0, cta_cycles = 0;
};

struct KernelPlan {
  std::vector<std::unique_ptr<KernelLaunch>> launches;  // run back to back
  KernelMapping map;                                    // of the main (first) launch
  Occupancy occupancy;
  double ctas = 0;  // of the main launch
};

class IKernel {
 public:
  virtual ~IKernel() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Mapping keys the kernel reads besides its tile (documentation for `components`).
  virtual std::vector<ParamDecl> params() const { return {}; }
  // Whether it runs row ops (GemmOp::is_row_op) instead of GEMMs: a row op goes to such
  // a kernel whatever mapping.kernel names, which chooses among GEMM kernels.
  virtual bool runs_row_ops() const { return false; }
  // Whether every CTA of its launches does the same work (a dense or N:M GEMM's output
  // tiles), so that its run can settle into a period steady-state mode extrapolates
  // (Gpu::set_steady_state); kernels of uneven CTAs (block-sparse, CSR) are simulated in
  // full there.
  virtual bool uniform_ctas(const GemmOp& /*op*/) const { return false; }
  // Higher is asked first by `auto`; 0: never picked by `auto` (e.g. a follow-up kernel).
  virtual int auto_priority() const = 0;
  virtual bool auto_pick(const GemmOp& op, const MappingRequest& req) const = 0;
  // Empty if the kernel can run `op` here, else why not (for an InputError).
  virtual std::string cannot_run(const GemmOp& op, const KernelEnv& env) const = 0;
  virtual KernelMapping mapping(const GemmOp& op, const KernelEnv& env) const = 0;
  // The `n` best mappings by the kernel's own estimate, best first, for
  // mapping.policy exhaustive to simulate; empty when the kernel's mapping is not
  // searched that way (a fixed schedule, or the user gave the tile).
  virtual std::vector<KernelMapping> ranked_mappings(const GemmOp& /*op*/, const KernelEnv& /*env*/,
                                                     int /*n*/) const {
    return {};
  }
  virtual Occupancy occupancy(const GemmOp& op, const KernelMapping& map,
                              const KernelEnv& env) const = 0;
  // Cycles of `op` under `map` by the kernel's own closed-form estimate (the one its
  // mapping choice ranks tiles by), for `stcsim run --mode analytic`. The default is a
  // roofline: the compulsory bytes at the DRAM rate or the products at the op's peak
  // rate, whichever is longer, plus two L2 round trips (roofline_cycles); CUDA-core
  // kernels take the CUDA cores' rate.
  virtual double estimate_cycles(const GemmOp& op, const KernelMapping& map,
                                 const KernelEnv& env) const;
  virtual KernelPlan plan(const GemmOp& op, const KernelEnv& env,
                          const Allocate& allocate) const = 0;
  // Fill what only this kernel knows (its peak, pattern statistics) into `r`, whose
  // common fields are set.
  virtual void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv& env,
                      const SmActivity& activity, OpResult& r) const = 0;
};

// The roofline of IKernel::estimate_cycles at `fma_per_cycle` (the whole GPU's).
double roofline_cycles(const GemmOp& op, const KernelEnv& env, double fma_per_cycle);
// The CUDA cores' FMA lanes of the whole GPU, per cycle: CUDA-core kernels' roofline rate.
inline double cuda_core_fma_per_cycle(const KernelEnv& env) {
  return env.cuda_core_fma_per_second() / (env.clock_mhz * 1e6);
}
// A CUDA-core kernel's occupancy: CTAs of `threads` without shared memory or register
// pressure, at most `cap` per SM (launch bounds), bound by the SM's threads or CTA slots.
inline Occupancy thread_bound_occupancy(const KernelEnv& env, int threads, int cap = 1 << 30) {
  const int by_threads = std::min(cap, env.sm.max_threads / threads);
  return by_threads <= env.sm.max_ctas ? Occupancy{by_threads, "threads"}
                                       : Occupancy{env.sm.max_ctas, "ctas"};
}
// A CUDA-core kernel's peak in its report: the FP32 FMA lanes of every SM.
inline void report_cuda_core_peak(const KernelEnv& env, OpResult& r) {
  r.peak_products_per_second = env.cuda_core_fma_per_second();
  r.peak_tflops = 2.0 * r.peak_products_per_second / 1e12;
}

// The registered kernels.
class KernelRegistry {
 public:
  static void add(std::unique_ptr<IKernel> k);
  // Throws InputError listing the registered names (and the nearest) when unknown.
  static const IKernel& get(const std::string& name);
  static std::vector<const IKernel*> all();  // by name
  // The kernel `req.kernel` names, or the `auto` choice for `op`; throws InputError
  // (naming the op) when the kernel cannot run it.
  static const IKernel& choose(const GemmOp& op, const MappingRequest& req, const KernelEnv& env);
};

// Declares a kernel: `static const KernelRegistrar<MyKernel> reg;` in its file.
template <class K>
struct KernelRegistrar {
  KernelRegistrar() { KernelRegistry::add(std::make_unique<K>()); }
};

}  // namespace stcsim
