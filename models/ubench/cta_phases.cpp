// The CTA-phase benchmark: the counterpart of the harness's cta_phases
// (validation/ubench/mainloop_bench.cu). The harness's dense and 2:4 kernels at each of
// its tiles, mainloop part mma_only (the prologue fills every stage and waits for them
// once, then mma alone), on 4096 x 4096 x 1024 where what each CTA pays once weighs most;
// one launch to warm up, then one whose CTAs' phases are kept. The medians over the CTAs
// (models/common/cta_phases.h) say where the model puts a CTA's fixed cost: its prologue,
// its epilogue, the refill of its SM slot, and whether co-resident CTAs run in step
// (corun_skew near 0) or hide each other's prologue (near half a CTA).
#include <cmath>
#include <string>
#include <vector>

#include "models/ubench/anatomy_kernels.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

using namespace anatomy;  // NOLINT: the harness's kernels and tiles

constexpr std::int64_t kK = 1024;
constexpr const char* kMetrics[] = {"prologue", "loop", "epilogue", "refill", "corun_skew"};

std::string figure(const Kernel& k, const Tile& t) {
  return std::string("cta_phases_") + k.name + "_" + tile_name(t) + "_mma_only_k" +
         std::to_string(kK);
}

class CtaPhases : public IMicrobenchmark {
 public:
  std::string name() const override { return "cta_phases"; }
  std::vector<std::string> figures() const override {
    std::vector<std::string> f;
    for (const Kernel& k : kKernels)
      for (const Tile& t : kTiles)
        for (const char* m : kMetrics) f.push_back(figure(k, t) + "|" + m);
    return f;
  }
  std::string cannot_run(const KernelEnv& env) const override { return anatomy::cannot_run(env); }
  std::vector<std::pair<std::string, std::string>> skipped(const KernelEnv& env) const override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Kernel& k : kKernels)
      for (const Tile& t : kTiles)
        if (std::string why = anatomy::cannot_run(k, t, env); !why.empty())
          out.emplace_back(figure(k, t), why);
    return out;
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    std::vector<UbenchResult> out;
    for (const Kernel& k : kKernels) {
      for (const Tile& t : kTiles) {
        if (!anatomy::cannot_run(k, t, gpu.env()).empty()) continue;  // listed by skipped()
        const KernelPlan plan = anatomy_plan(gpu, k, t, kMainloopMma, kK);
        const KernelLaunch& launch = *plan.launches.front();
        gpu.launch(launch);  // the warm-up launch
        std::vector<CtaPhaseRecord> ctas;
        gpu.launch(launch, ctas);
        gpu.flush();
        const CtaPhaseSummary s = summarize_cta_phases(ctas);
        const double values[] = {s.prologue, s.loop, s.epilogue, s.refill, s.corun_skew};
        for (std::size_t i = 0; i < std::size(kMetrics); ++i) {
          if (std::isnan(values[i])) continue;  // refill: one wave; corun_skew: one CTA an SM
          UbenchResult r{figure(k, t), kMetrics[i], "clk",
                         "4096x4096x" + std::to_string(kK) + " " + k.name +
                             " kernel, mainloop parts: mma_only; the median over its " +
                             std::to_string(ctas.size()) + " CTAs, SM cycles"};
          r.params = {{"tile", tile_name(t)},
                      {"variant", "mma_only"},
                      {"m", kSize},
                      {"n", kSize},
                      {"k", kK},
                      {"swizzle", 8},
                      {"ctas_per_sm", launch.ctas_per_sm}};
          r.samples.push_back(values[i]);
          out.push_back(std::move(r));
        }
      }
    }
    return out;
  }
};

const UbenchRegistrar<CtaPhases> registered;

}  // namespace

}  // namespace stcsim
