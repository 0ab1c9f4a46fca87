#include "models/ubench/anatomy_kernels.h"

#include "models/mapping/harness_loop_instructions.h"

namespace stcsim::anatomy {

std::string tile_name(const Tile& t) {
  return std::to_string(t.cta_m) + "x" + std::to_string(t.cta_n) + "x" + std::to_string(t.cta_k) +
         "_" + std::to_string(t.warp_m) + "x" + std::to_string(t.warp_n) + "_s" +
         std::to_string(t.stages);
}

GemmOp anatomy_op(const Kernel& k, std::int64_t K) {
  GemmOp g;
  g.name = "mainloop_anatomy";
  g.m = g.n = kSize;
  g.k = K;
  g.dtype = Dtype::FP16;
  g.sparsity = k.sparsity;
  return g;
}

std::string cannot_run(const Kernel& k, const Tile& t, const KernelEnv& env) {
  if (std::string why = KernelRegistry::get("multistage_gemm").cannot_run(anatomy_op(k), env);
      !why.empty())
    return why;
  KernelMapping m;
  m.cta_m = t.cta_m, m.cta_n = t.cta_n, m.cta_k = t.cta_k, m.stages = t.stages;
  const std::int64_t need = m.smem_bytes(anatomy_op(k).kind());
  if (need <= env.sm.max_smem_per_cta_bytes) return {};
  return "the tile's " + std::to_string(t.stages) + " stages need " + std::to_string(need) +
         " bytes of shared memory, more than the " + std::to_string(env.sm.max_smem_per_cta_bytes) +
         " a CTA may use";
}

std::string cannot_run(const KernelEnv& env) {
  return KernelRegistry::get("multistage_gemm").cannot_run(anatomy_op(kKernels[0]), env);
}

KernelPlan anatomy_plan(UbenchMachine& gpu, const Kernel& k, const Tile& t, unsigned parts,
                        std::int64_t K) {
  const IKernel& kernel = KernelRegistry::get("multistage_gemm");
  const KernelEnv& env = gpu.env();
  MappingRequest req = env.request;
  req.kernel = kernel.name();
  req.policy = "chooser";
  req.cta_m = t.cta_m, req.cta_n = t.cta_n, req.cta_k = t.cta_k;
  req.warp_m = t.warp_m, req.warp_n = t.warp_n, req.stages = t.stages;
  req.swizzle = 8, req.split_k = 1;  // as the harness launches it
  req.mainloop_parts = parts;
  req.mma_order = k.mma_order;
  req.barrier_point = "ktile_end";  // the harness syncs after the k-tile's last mma
  req.epilogue_staging = "output";  // and stages its output tile as f16 (cta_tile.cuh)
  // What the variant's loop issues besides mma and fragment loads (its PTX).
  KernelMapping tile;
  tile.cta_m = t.cta_m, tile.cta_n = t.cta_n, tile.cta_k = t.cta_k;
  tile.warp_m = t.warp_m, tile.warp_n = t.warp_n, tile.stages = t.stages;
  if (const auto loop = harness_loop_instructions(k.name, tile, parts)) req.loop = *loop;
  const KernelEnv pinned{env.num_sms,
                         env.clock_mhz,
                         env.sm,
                         env.tc,
                         env.smem,
                         env.tma,
                         req,
                         env.l2_bytes_per_cycle,
                         env.dram_bytes_per_cycle,
                         env.l2_hit_latency,
                         env.gpu_name};
  return kernel.plan(anatomy_op(k, K), pinned,
                     [&gpu](double bytes) { return gpu.allocate(bytes); });
}

}  // namespace stcsim::anatomy
