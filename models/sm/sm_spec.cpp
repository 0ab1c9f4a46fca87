#include "models/sm/sm_spec.h"

#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> GpuSpec::params() {
  return {float_param("clock_mhz", "MHz", std::nullopt, 1, 1e5,
                      "core clock: one simulated cycle; seconds = cycles / clock"),
          int_param("num_sms", "SMs", std::nullopt, 1, 4096, "streaming multiprocessors"),
          float_param("measured_clock_mhz", "MHz", GpuSpec{}.measured_clock_mhz, 0, 1e5,
                      "SM clock observed on a real GPU during the op (0: none); when set, ns "
                      "and GB/s convert to cycles at it, seconds = cycles / it, and the power "
                      "model reports energy at it instead of settling a clock of its own "
                      "(stcsim validate and calibrate set it from a measurement); one above "
                      "clock_mhz is taken at clock_mhz, the highest the SMs run at"),
          float_param("max_clock_mhz", "MHz", GpuSpec{}.max_clock_mhz, 0, 1e5,
                      "SM clock of kernels that leave the tensor cores idle (microbenchmarks' "
                      "chases, copies and reads), at or above clock_mhz: the boost clock where "
                      "a GEMM's load holds the SMs at clock_mhz; 0: clock_mhz (stcsim ubench "
                      "runs at it)"),
          float_param("kernel_launch_ns", "ns", GpuSpec{}.kernel_launch_ns, 0, 1e6,
                      "per kernel a GEMM launches: from the previous kernel's end to the first "
                      "CTA, with the completion signal after the last store, as back-to-back "
                      "launches in a stream or CUDA graph pay it (not in microbenchmarks, "
                      "which time inside the kernel)")};
}

GpuSpec GpuSpec::from(const ParamSet& p) {
  GpuSpec s;
  s.clock_mhz = p.get_float("clock_mhz");
  s.num_sms = int(p.get_int("num_sms"));
  s.measured_clock_mhz = p.get_float("measured_clock_mhz");
  s.kernel_launch_ns = p.get_float("kernel_launch_ns");
  s.max_clock_mhz = p.get_float("max_clock_mhz");
  if (s.max_clock_mhz > 0 && s.max_clock_mhz < s.clock_mhz)
    throw InputError("gpu.max_clock_mhz (" + format_value(ParamValue(s.max_clock_mhz)) +
                     " MHz) is below gpu.clock_mhz (" + format_value(ParamValue(s.clock_mhz)) +
                     " MHz): it is the clock of kernels lighter than a GEMM, at or above "
                     "the GEMM clock (0: the same)");
  return s;
}

std::vector<ParamDecl> SmSpec::params() {
  const SmSpec d;  // the defaults are the struct's initialisers, written once (sm_spec.h)
  return {
      int_param("sub_cores", "sub-cores", d.sub_cores, 1, 16,
                "processing blocks per SM, each with a warp scheduler and a tensor-core pipe"),
      int_param("max_threads", "threads", d.max_threads, 32, 8192, "resident threads per SM"),
      int_param("max_ctas", "CTAs", d.max_ctas, 1, 128, "resident CTAs per SM"),
      int_param("registers", "32-bit registers", d.registers, 1024, 1 << 20,
                "register file per SM"),
      int_param("max_regs_per_thread", "registers", d.max_regs_per_thread, 16, 1024,
                "register limit per thread"),
      int_param("smem_kib", "KiB", std::nullopt, 1, 1 << 16,
                "shared memory per SM available to CTAs"),
      int_param("max_smem_per_cta_kib", "KiB", std::nullopt, 1, 1 << 16,
                "largest shared-memory allocation of one CTA"),
      float_param("l2_link_bytes_per_cycle", "bytes/cycle", d.l2_link_bytes_per_cycle, 1, 4096,
                  "bandwidth between one SM and the L2, each direction"),
      int_param("cta_launch_cycles", "cycles", d.cta_launch_cycles, 0, 100000,
                "cycles from a CTA slot freeing to the next CTA's first instruction"),
      int_param("block_index_latency_cycles", "cycles", d.block_index_latency_cycles, 0, 100000,
                "block-sparse kernels: decode latency of the block-index unit after the CTA's "
                "row_ptr/col_idx slice arrives (address generation for the gathers)"),
      float_param("block_index_blocks_per_cycle", "blocks/cycle", d.block_index_blocks_per_cycle,
                  0.01, 1024,
                  "block-sparse kernels: block indices the unit decodes per cycle per CTA"),
      int_param("fp32_lanes_per_sub_core", "FMA/cycle", d.fp32_lanes_per_sub_core, 1, 1024,
                "FP32 FMA lanes (CUDA cores) per sub-core: a warp-wide FMA takes 32/lanes cycles"),
      int_param("l1_kib", "KiB", d.l1_kib, 0, 1 << 16,
                "L1 data cache left beside the shared-memory carve-out (caches the CSR kernel's "
                "activation gathers; the tensor-core kernels bypass it with cp.async.cg)"),
      int_param("l1_hit_latency_cycles", "cycles", d.l1_hit_latency_cycles, 1, 100000,
                "L1 hit latency of a global load"),
      int_param("alu_latency_cycles", "cycles", d.alu_latency_cycles, 1, 1000,
                "register-dependent latency of an integer or FP32 ALU instruction (the CUDA-core "
                "kernels' dependent address and conversion chains)"),
      float_param("warp_issue_per_cycle", "instructions/cycle", d.warp_issue_per_cycle, 0.125, 8,
                  "warp instructions each sub-core's scheduler issues per cycle, shared by its "
                  "warps (1 since Volta: NVIDIA's whitepapers); a mainloop's non-mma "
                  "instructions take it (mapping.ktile_prelude_instructions)"),
  };
}

SmSpec SmSpec::from(const ParamSet& p) {
  SmSpec s;
  s.sub_cores = int(p.get_int("sub_cores"));
  s.max_threads = int(p.get_int("max_threads"));
  s.max_ctas = int(p.get_int("max_ctas"));
  s.registers = int(p.get_int("registers"));
  s.max_regs_per_thread = int(p.get_int("max_regs_per_thread"));
  s.smem_bytes = p.get_int("smem_kib") * 1024;
  s.max_smem_per_cta_bytes = p.get_int("max_smem_per_cta_kib") * 1024;
  s.l2_link_bytes_per_cycle = p.get_float("l2_link_bytes_per_cycle");
  s.cta_launch_cycles = int(p.get_int("cta_launch_cycles"));
  s.block_index_latency_cycles = int(p.get_int("block_index_latency_cycles"));
  s.block_index_blocks_per_cycle = p.get_float("block_index_blocks_per_cycle");
  s.fp32_lanes_per_sub_core = int(p.get_int("fp32_lanes_per_sub_core"));
  s.l1_kib = int(p.get_int("l1_kib"));
  s.l1_hit_latency_cycles = int(p.get_int("l1_hit_latency_cycles"));
  s.alu_latency_cycles = int(p.get_int("alu_latency_cycles"));
  s.warp_issue_per_cycle = p.get_float("warp_issue_per_cycle");
  return s;
}

static CatalogEntry gpu_entry{ComponentInfo{
    "gpu", "sm_array", "a clock domain and a number of identical SMs sharing one L2 and DRAM",
    "GPU top level: SMs, CTA scheduler, memory system", GpuSpec::params(), true}};

static CatalogEntry sm_entry{ComponentInfo{
    "sm", "subcore_sm",
    "runs resident CTAs on sub-core warp schedulers and tensor pipes within occupancy limits",
    "SM with sub-cores, shared memory, cp.async copy engine and an L2 link", SmSpec::params(),
    true}};

}  // namespace stcsim
