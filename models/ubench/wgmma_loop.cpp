// wgmma.mma_async m64nNk16 and wgmma.mma_async.sp m64nNk32 (f16 in, f32 accumulators, A
// in registers, B from shared memory through a descriptor), N in {64, 128, 256}: the
// counterparts of validation/ubench/wgmma_bench.cu. Throughput: every SM runs one CTA
// of 1 or 2 warpgroups issuing back to back into their accumulators with one wait at the
// end; latency: one warpgroup, wait_group 0 after each. Each wgmma reads its B tile on
// the shared-memory matrix path and runs its four m16 slices on the sub-cores of the
// warpgroup's warps, as the warp-specialized GEMM kernel issues it.
#include <algorithm>

#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

constexpr int kIters = 2048, kLatencyIters = 256;

struct WgmmaLoopLaunch : UbenchLaunch {
  WgmmaLoopLaunch(int grid, const MmaKind& k, int wgs, int iters, bool wait)
      : UbenchLaunch(grid, 1), kind(k), warpgroups(wgs), iterations(iters), wait_each(wait) {}
  MmaKind kind;
  int warpgroups, iterations;
  bool wait_each;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class WgmmaLoopCta : public SmLocalCta {
 public:
  WgmmaLoopCta(const WgmmaLoopLaunch& k, const CtaTask& t, SmContext& sm)
      : SmLocalCta(k, t, sm), k_(k) {}

 private:
  Cycle run(Cycle now) override {
    auto& pipes = sm_.pipes;
    const int nsub = int(pipes.size());
    const int lat = pipes[0]->latency(k_.kind);
    const double drain = lat - pipes[0]->initiation_interval(k_.kind);
    const auto s = k_.kind.shape();
    const double b_bytes = double(s.n) * s.k * input_bytes(k_.kind.dtype);  // A: registers
    std::vector<Cycle> ready(std::size_t(k_.warpgroups), now);
    Cycle end = now;
    for (int it = 0; it < k_.iterations; ++it)
      for (int g = 0; g < k_.warpgroups; ++g) {
        Cycle at = ready[std::size_t(g)];
        for (int warp = 0; warp < 4; ++warp)
          at = std::max(at, pipes[std::size_t((g * 4 + warp) % nsub)]->free_at());
        const auto span = sm_.smem.matrix_read(at, b_bytes);
        Cycle last = span.start;
        for (int warp = 0; warp < 4; ++warp)
          last =
              std::max(last, pipes[std::size_t((g * 4 + warp) % nsub)]->issue(span.start, k_.kind));
        const Cycle done = std::max(last + lat, span.done + drain);
        end = std::max(end, done);
        ready[std::size_t(g)] = k_.wait_each ? done : span.start;
      }
    return end;
  }

  const WgmmaLoopLaunch& k_;
};

std::unique_ptr<CtaProgram> WgmmaLoopLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<WgmmaLoopCta>(*this, t, sm);
}

template <int N, bool Sparse>
class WgmmaLoopBench : public IMicrobenchmark {
 public:
  std::string name() const override {
    return std::string(Sparse ? "wgmma_sp_m64n" : "wgmma_m64n") + std::to_string(N) +
           (Sparse ? "k32" : "k16");
  }
  std::vector<std::string> figures() const override {
    return {name() + "_f16_f32|throughput", name() + "_f16_f32|latency"};
  }
  std::string cannot_run(const KernelEnv& env) const override {
    return env.tc.supports(kind()) ? "" : env.tc.unsupported_reason(kind());
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    const std::string figure = name() + "_f16_f32";
    const auto s = kind().shape();
    const double flops = 2.0 * double(s.m) * s.n * s.k;  // dense-equivalent
    std::vector<UbenchResult> out;
    for (int wgs : {1, 2}) {
      UbenchResult r{figure, "throughput", "flop/clk/SM",
                     "every SM, 1 CTA of `warpgroups` warpgroups issuing back to back, clock64 per "
                     "CTA"};
      r.params = {{"n", N}, {"warpgroups_per_sm", wgs}, {"iterations", kIters}};
      const WgmmaLoopLaunch k(gpu.env().num_sms, kind(), wgs, kIters, false);
      gpu.launch(k);
      for (Cycle c : k.cta_cycles) r.samples.push_back(flops * wgs * kIters / c);
      out.push_back(r);
    }
    UbenchResult lat{figure, "latency", "clk",
                     "one warpgroup, wait_group 0 after each: clocks per instruction"};
    lat.params = {{"n", N}, {"iterations", kLatencyIters}};
    const WgmmaLoopLaunch k(1, kind(), 1, kLatencyIters, true);
    gpu.launch(k);
    lat.samples.push_back(k.cta_cycles[0] / kLatencyIters);
    out.push_back(lat);
    return out;
  }

 private:
  static MmaKind kind() {
    return MmaKind{Dtype::FP16, Sparse ? NmSparsity{2, 4} : NmSparsity{}, N};
  }
};

const UbenchRegistrar<WgmmaLoopBench<64, false>> reg_d64;
const UbenchRegistrar<WgmmaLoopBench<128, false>> reg_d128;
const UbenchRegistrar<WgmmaLoopBench<256, false>> reg_d256;
const UbenchRegistrar<WgmmaLoopBench<64, true>> reg_s64;
const UbenchRegistrar<WgmmaLoopBench<128, true>> reg_s128;
const UbenchRegistrar<WgmmaLoopBench<256, true>> reg_s256;

}  // namespace

}  // namespace stcsim
