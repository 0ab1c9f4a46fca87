// What the simulator reports for one GEMM (or the total over several). Each reported
// field is declared as a stat (sim/core/stat.h) where it is produced: the GPU's in
// models/gpu/op_stats.cpp, a kernel's in its own file, the dense comparison's in
// sim/driver/run_driver.cpp; stats.json and the totals are written from those
// declarations. It sits with the kernels, below the GPU: kernels add to it (report) and
// the GPU fills the rest, so neither folder includes the other's in a circle.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "models/common/gemm_op.h"
#include "models/functional/dot_unit.h"
#include "models/mapping/kernel_mapping.h"
#include "models/power/power_report.h"
#include "models/sm/stall_counters.h"
#include "sim/core/stat.h"

namespace stcsim {

struct OpResult {
  GemmOp op;
  std::string kernel;     // the registered kernel that ran it (models/kernels)
  bool memoized = false;  // reused from an identical GEMM earlier in the run (Gpu::driver)
  bool analytic = false;  // cycles from the kernel's closed-form estimate, not simulated
  KernelMapping mapping;
  Occupancy occupancy;
  double ctas = 0, waves = 0;
  double cycles = 0, seconds = 0, tflops = 0, peak_tflops = 0;
  double flops = 0;                     // dense-equivalent operations
  double products = 0;                  // real multiplies (N/M of the dense count when sparse)
  double peak_products_per_second = 0;  // the tensor cores' rate of real multiplies for this kind
  // Filled for a sparse GEMM simulated beside its dense twin (see docs/sparse.md):
  // speedup = work_reduction x efficiency_ratio x capability_ratio.
  double dense_cycles = 0, speedup = 0, work_reduction = 0, efficiency_ratio = 0,
         capability_ratio = 0;
  // Busy fraction of each resource over the op's cycles.
  double util_tensor = 0, util_smem = 0, util_l2 = 0, util_dram = 0, util_l2_link = 0;
  double l2_read_hit_rate = 0;
  // The CSR kernel: busy fraction of the FP32 pipes (CUDA cores), L1 hit rate of its gathers.
  double util_cuda = 0, l1_hit_rate = 0;
  double dram_read_bytes = 0, dram_write_bytes = 0, dram_gbps = 0;
  StallCounters stalls;    // tensor-pipe idle cycles by cause, summed over pipes
  double pipe_cycles = 0;  // cycles x pipes: busy + stalls + no_work
  double pipe_busy = 0;
  std::string limiter;
  // Block-sparse weights: kept-block fraction, max over mean CTA work (kept K per
  // CTA), and the cycles CTAs waited on block indices (fetch + decode) per CTA and as
  // a fraction of the CTAs' summed lifetimes.
  double block_density = 0, block_imbalance = 0, index_wait_cycles_per_cta = 0,
         index_wait_fraction = 0;
  // The tensor core's own dot-product unit for the op's kind, with which functional mode
  // computes the values (empty: the golden model), like `mapping` a fact of how it ran.
  functional::DotUnit dot_unit;
  // How the kernel computed, as its report() says: the instruction its threads issue,
  // the accumulation preset its arithmetic follows when not the tensor core's (e.g. the
  // CUDA cores' fp32 FMA chain; empty: the tensor core's), whether it ran on the CUDA
  // cores, and how it treated the weights' pattern.
  std::string instruction;
  std::string accumulation;
  bool on_cuda_cores = false;
  std::string weight_path;  // e.g. "block-skipping kernel" (empty: not exploited)
  // Energy, average power and the settled SM clock (models/power; all zero without a
  // power model). When a model settles the clock, seconds are cycles at that clock.
  PowerReport power;
  // Stats with no member here, set by their producer (a kernel's own counters).
  StatSlots stats;
};

using OpStat = Stat<OpResult>;

// The resource that bounds the run: the most utilised of tensor, smem, l2, dram and
// l2_link; "latency" when none is at least half busy.
std::string pick_limiter(const OpResult& r);

}  // namespace stcsim
