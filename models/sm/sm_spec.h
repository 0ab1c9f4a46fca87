// Parameters of the GPU ("gpu" section) and of one SM ("sm" section): the resources
// that bound occupancy and the SM's path to the L2.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/core/param.h"

namespace stcsim {

// Each spec's member initialisers are its parameters' defaults: params() reads them from
// a default-constructed spec. A parameter the config must give (declared without a
// default) still has an initialiser, the A100's figure, for specs built in code (tests,
// the mapping chooser).
struct GpuSpec {
  double clock_mhz = 1410;
  int num_sms = 108;
  // An SM clock observed on a real GPU during the op (stcsim validate and calibrate set
  // it from a measurement's clock samples); 0: none. When set, ns and GB/s convert to
  // cycles at it and the op is timed at it: a power model reports the op's energy there
  // instead of settling a clock of its own, which the measurement already did. One above
  // clock_mhz is taken at clock_mhz: the preset clock is the highest the SMs run at under
  // the work simulated, and a higher reading is the controller's setting, not the SMs'
  // clock (NVML read 1980 MHz on an H200 whose cycle counters ran at 1755 under our
  // GEMMs: models/presets/h100.yaml [14]).
  double measured_clock_mhz = 0;
  // The SM clock of kernels that leave the tensor cores idle (a microbenchmark's chases,
  // copies and reads): the board's boost clock, where a GEMM's load holds the SMs at
  // clock_mhz (h100.yaml [14]). 0: clock_mhz. stcsim ubench runs at it.
  double max_clock_mhz = 0;
  // Per kernel launched by a GEMM: from the previous kernel's end to this one's first CTA
  // and from its last store to the end a stream (and event timing) sees. 0: none.
  double kernel_launch_ns = 0;
  // The highest clock the SMs reach: clock_mhz under a GEMM's load, max_clock_mhz (when
  // set) for kernels that leave the tensor cores idle.
  double top_clock_mhz(bool light_kernels) const {
    return light_kernels && max_clock_mhz > 0 ? max_clock_mhz : clock_mhz;
  }
  // The measured clock the op runs at (0: none): measured_clock_mhz, at most the top.
  double measured_run_clock_mhz(bool light_kernels = false) const {
    return measured_clock_mhz > 0 ? std::min(measured_clock_mhz, top_clock_mhz(light_kernels))
                                  : 0.0;
  }
  // The clock the op runs at: the measured one when given, else the top.
  double run_clock_mhz(bool light_kernels = false) const {
    return measured_clock_mhz > 0 ? measured_run_clock_mhz(light_kernels)
                                  : top_clock_mhz(light_kernels);
  }
  static std::vector<ParamDecl> params();
  static GpuSpec from(const ParamSet& p);
};

struct SmSpec {
  int sub_cores = 4;
  int max_threads = 2048;
  int max_ctas = 32;
  int registers = 65536;
  int max_regs_per_thread = 255;
  std::int64_t smem_bytes = 167936;  // usable by CTAs on one SM
  std::int64_t max_smem_per_cta_bytes = 167936;
  double l2_link_bytes_per_cycle = 64;  // each direction
  int cta_launch_cycles = 200;          // block launch + prologue setup
  // Block-index fetch/decode unit (block-sparse kernels): the CTA's index slice comes
  // through the memory system, then decodes at this latency and rate.
  int block_index_latency_cycles = 32;
  double block_index_blocks_per_cycle = 2.0;
  // CUDA cores and L1 (the CSR SpMM kernel): FP32 FMA lanes per sub-core, and the L1
  // data cache that catches its gathers of activation rows.
  int fp32_lanes_per_sub_core = 16;
  int l1_kib = 128;
  int l1_hit_latency_cycles = 33;
  // Cycles from an integer or FP32 ALU instruction's issue to when an instruction that
  // reads its result may issue (register-dependent latency).
  int alu_latency_cycles = 4;
  // Warp instructions each sub-core's scheduler issues per cycle (one since Volta: NVIDIA's
  // Volta, Ampere and Hopper whitepapers). The port a mainloop's non-mma instructions take
  // (KernelMapping::loop); its warps share it.
  double warp_issue_per_cycle = 1;
  static std::vector<ParamDecl> params();
  static SmSpec from(const ParamSet& p);
};

}  // namespace stcsim
