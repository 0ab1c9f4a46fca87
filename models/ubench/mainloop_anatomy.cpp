// The mainloop anatomy: the counterpart of validation/ubench/mainloop_bench.cu. The
// multistage GEMM kernel (models/kernels/multistage_gemm.cpp, the harness's dense kernel
// as the model runs it) on 4096^3 f16 at each tile the harness compiles, whole and with
// parts of its mainloop left out (KernelMapping::mainloop_parts): no copies after the
// prologue, no per-k-tile barrier, no fragment loads, no mma. The GPU's figures say where
// an Ampere-style kernel's time goes; these say where the model puts it, part by part.
// As on the GPU: one launch to warm up, then the timed one (back to back, no L2 flush);
// TFLOP/s are the whole GEMM's flops over the launch's time at the SM clock.
#include <string>

#include "models/kernels/i_kernel.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

constexpr std::int64_t kSize = 4096;  // M = N = K

struct Tile {
  int cta_m, cta_n, cta_k, warp_m, warp_n, stages;
};
// The harness's tiles (validation/cuda/tile_geometry.h, STCSIM_VALIDATION_TILES).
constexpr Tile kTiles[] = {{256, 128, 64, 64, 64, 3},
                           {128, 128, 64, 64, 64, 4},
                           {128, 64, 64, 64, 32, 4},
                           {64, 64, 64, 32, 32, 6}};

struct Variant {
  const char* name;
  unsigned parts;
};
// As validation/ubench/mainloop_bench.cu names and composes them.
constexpr Variant kVariants[] = {
    {"full", kMainloopAll},
    {"no_copy", kMainloopBarrier | kMainloopFragments | kMainloopMma},
    {"no_copy_no_barrier", kMainloopFragments | kMainloopMma},
    {"mma_only", kMainloopMma},
    {"no_mma", kMainloopCopy | kMainloopBarrier | kMainloopFragments},
};

std::string tile_name(const Tile& t) {
  return std::to_string(t.cta_m) + "x" + std::to_string(t.cta_n) + "x" + std::to_string(t.cta_k) +
         "_" + std::to_string(t.warp_m) + "x" + std::to_string(t.warp_n) + "_s" +
         std::to_string(t.stages);
}

std::string figure(const Tile& t, const Variant& v) {
  return "mainloop_dense_" + tile_name(t) + "_" + v.name;
}

class MainloopAnatomy : public IMicrobenchmark {
 public:
  std::string name() const override { return "mainloop_anatomy"; }
  std::vector<std::string> figures() const override {
    std::vector<std::string> f;
    for (const Tile& t : kTiles)
      for (const Variant& v : kVariants) f.push_back(figure(t, v) + "|throughput");
    return f;
  }
  std::string cannot_run(const KernelEnv& env) const override {
    return KernelRegistry::get("multistage_gemm").cannot_run(op(), env);
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    const IKernel& kernel = KernelRegistry::get("multistage_gemm");
    const KernelEnv& env = gpu.env();
    const GemmOp g = op();
    const double flops = 2.0 * double(kSize) * double(kSize) * double(kSize);
    std::vector<UbenchResult> out;
    for (const Tile& t : kTiles)
      for (const Variant& v : kVariants) {
        MappingRequest req = env.request;
        req.kernel = kernel.name();
        req.policy = "chooser";
        req.cta_m = t.cta_m, req.cta_n = t.cta_n, req.cta_k = t.cta_k;
        req.warp_m = t.warp_m, req.warp_n = t.warp_n, req.stages = t.stages;
        req.swizzle = 8, req.split_k = 1;  // as the harness launches it
        req.mainloop_parts = v.parts;
        req.barrier_point = "ktile_end";  // the harness's loop syncs after the k-tile's last mma
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
        const KernelPlan plan =
            kernel.plan(g, pinned, [&gpu](double bytes) { return gpu.allocate(bytes); });
        const KernelLaunch& launch = *plan.launches.front();
        gpu.launch(launch);  // the warm-up launch
        const Cycle cycles = gpu.launch(launch);
        UbenchResult r{figure(t, v), "throughput", "TFLOP/s",
                       std::string("4096^3 dense kernel, mainloop parts: ") + v.name +
                           " (the whole GEMM's flops over the time of a warm launch)"};
        r.params = {{"tile", tile_name(t)}, {"variant", v.name}, {"parts", v.parts}, {"m", kSize},
                    {"n", kSize},           {"k", kSize},        {"swizzle", 8}};
        r.samples.push_back(flops / (double(cycles) / (gpu.clock_mhz() * 1e6)) * 1e-12);
        out.push_back(r);
        gpu.flush();  // each tile's operands are its own allocation
      }
    return out;
  }

 private:
  static GemmOp op() {
    GemmOp g;
    g.name = "mainloop_anatomy";
    g.m = g.n = g.k = kSize;
    g.dtype = Dtype::FP16;
    return g;
  }
};

const UbenchRegistrar<MainloopAnatomy> registered;

}  // namespace

}  // namespace stcsim
