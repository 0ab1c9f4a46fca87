// The mainloop anatomy: the counterpart of validation/ubench/mainloop_bench.cu. The
// multistage GEMM kernel (models/kernels/multistage_gemm.cpp, the harness's dense kernel
// as the model runs it) on 4096^3 f16 at each tile the harness compiles, whole and with
// parts of its mainloop left out (KernelMapping::mainloop_parts): no copies after the
// prologue, no per-k-tile barrier, no fragment loads, no mma. The GPU's figures say where
// an Ampere-style kernel's time goes; these say where the model puts it, part by part.
// The harness's 2:4 kernel the same way (mainloop_sp24_*): 2:4 f16 on mma.sp, simulated as
// validate simulates stcsim_sp24 (a column of mma.sp per B fragment, the barrier after the
// k-tile's last mma, its rolled k-sub loop). Each variant's loop instructions besides mma and
// fragment loads as its PTX has them (models/mapping/harness_loop_instructions.h). As on the GPU:
// one launch to warm up, then the timed one (back to back, no L2 flush); TFLOP/s are the whole
// (dense) GEMM's flops over the launch's time at the SM clock. mma_only and full run again
// at K = 1024 and 2048 (the K sweep), to part the loop's rate from each CTA's fixed cost.
#include <iterator>
#include <string>
#include <vector>

#include "models/ubench/anatomy_kernels.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

using namespace anatomy;  // NOLINT: the harness's kernels and tiles

// The K sweep, as the harness runs it: mma_only and full again at shorter K. A launch's
// time against K is a line whose slope is the loop's rate and whose intercept is what each
// CTA pays once (prologue, epilogue, launch, tail); figures named with their K (_k1024).
constexpr std::int64_t kSweepK[] = {1024, 2048};

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

bool swept(const Variant& v) {
  return std::string(v.name) == "mma_only" || std::string(v.name) == "full";
}

// The variants' K: kSize for all, the sweep's for mma_only and full.
std::vector<std::int64_t> ks_of(const Variant& v) {
  std::vector<std::int64_t> ks{kSize};
  if (swept(v)) ks.insert(ks.end(), std::begin(kSweepK), std::end(kSweepK));
  return ks;
}

std::string figure(const Kernel& k, const Tile& t, const Variant& v, std::int64_t K = kSize) {
  return std::string("mainloop_") + k.name + "_" + tile_name(t) + "_" + v.name +
         (K == kSize ? "" : "_k" + std::to_string(K));
}
// The harness also runs the swept variants on all-zero operands (figure + "_zeros"): on a
// GPU whose clock follows its power they may run faster; cycles in the model do not depend
// on the values, so it reports the random-operand launch under both names.
const char* const kZeros = "_zeros";

class MainloopAnatomy : public IMicrobenchmark {
 public:
  std::string name() const override { return "mainloop_anatomy"; }
  std::vector<std::string> figures() const override {
    std::vector<std::string> f;
    for (const Kernel& k : kKernels)
      for (const Tile& t : kTiles)
        for (const Variant& v : kVariants) {
          for (const std::int64_t K : ks_of(v)) f.push_back(figure(k, t, v, K) + "|throughput");
          if (swept(v)) f.push_back(figure(k, t, v) + kZeros + "|throughput");
        }
    return f;
  }
  std::string cannot_run(const KernelEnv& env) const override { return anatomy::cannot_run(env); }
  // A GPU without mma.sp runs the dense kernel's figures only; one with too little shared
  // memory a CTA, the tiles that fit.
  std::vector<std::pair<std::string, std::string>> skipped(const KernelEnv& env) const override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Kernel& k : kKernels) {
      for (const Tile& t : kTiles) {
        const std::string tile_why = anatomy::cannot_run(k, t, env);
        if (tile_why.empty()) continue;
        for (const Variant& v : kVariants) {
          for (const std::int64_t K : ks_of(v)) out.emplace_back(figure(k, t, v, K), tile_why);
          if (swept(v)) out.emplace_back(figure(k, t, v) + kZeros, tile_why);
        }
      }
    }
    return out;
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    std::vector<UbenchResult> out;
    for (const Kernel& k : kKernels) {
      for (const Tile& t : kTiles) {
        if (!anatomy::cannot_run(k, t, gpu.env()).empty()) continue;  // listed by skipped()
        for (const Variant& v : kVariants)
          for (const std::int64_t K : ks_of(v)) {
            out.push_back(run_variant(gpu, k, t, v, K));
            if (swept(v) && K == kSize) {
              UbenchResult z = out.back();
              z.name += kZeros;
              z.what += "; all-zero operands, the same launch (no data dependence here)";
              out.push_back(z);
            }
          }
      }
    }
    return out;
  }

 private:
  // Variant v of kernel k at tile t on 4096 x 4096 x K: a warm-up launch, then the timed one.
  static UbenchResult run_variant(UbenchMachine& gpu, const Kernel& k, const Tile& t,
                                  const Variant& v, std::int64_t K) {
    const KernelPlan plan = anatomy_plan(gpu, k, t, v.parts, K);
    const KernelLaunch& launch = *plan.launches.front();
    gpu.launch(launch);  // the warm-up launch
    const Cycle cycles = gpu.launch(launch);
    UbenchResult r{figure(k, t, v, K), "throughput", "TFLOP/s",
                   "4096x4096x" + std::to_string(K) + " " + std::string(k.name) +
                       " kernel, mainloop parts: " + v.name +
                       " (the whole GEMM's flops over the time of a warm launch)"};
    r.params = {{"tile", tile_name(t)}, {"variant", v.name}, {"parts", v.parts},
                {"m", kSize},           {"n", kSize},        {"k", K},
                {"swizzle", 8}};
    const double flops = 2.0 * double(kSize) * double(kSize) * double(K);
    // A GEMM's mainloop: at the clock the SMs hold under a GEMM's load, not the light
    // kernels' clock the rest of stcsim ubench runs at (h100.yaml [14]).
    r.samples.push_back(flops / (double(cycles) / (gpu.gemm_clock_mhz() * 1e6)) * 1e-12);
    gpu.flush();  // each tile's operands are its own allocation
    return r;
  }
};

const UbenchRegistrar<MainloopAnatomy> registered;

}  // namespace

}  // namespace stcsim
