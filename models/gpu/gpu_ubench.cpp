// The GPU running microbenchmarks (models/ubench) instead of GEMMs: each benchmark
// drives the GPU through UbenchMachine from the driver thread and flushes it before each
// measurement whose result depends on what the caches hold.
#include "models/gpu/gpu.h"

namespace stcsim {

class Gpu::UbenchAccess : public UbenchMachine {
 public:
  explicit UbenchAccess(Gpu& g) : g_(g) {}
  const KernelEnv& env() const override { return *g_.env_; }
  double l2_bytes() const override { return g_.mem_->l2().capacity_bytes(); }
  double clock_mhz() const override { return g_.run_mhz_; }
  double gemm_clock_mhz() const override { return g_.gpu_.run_clock_mhz(); }
  std::uint64_t allocate(double bytes) override { return g_.allocate(bytes); }
  Cycle launch(const KernelLaunch& k) override {
    const Cycle start = now_cycles();
    g_.run_kernel(k);
    return now_cycles() - start;
  }
  Cycle launch(const KernelLaunch& k, std::vector<CtaPhaseRecord>& phases) override {
    struct Keep {  // the SMs log into `phases` for this launch only, also if it throws
      Gpu& g;
      Keep(Gpu& gpu, std::vector<CtaPhaseRecord>* log) : g(gpu) {
        for (auto& sm : g.sms_) sm->phase_log = log;
      }
      ~Keep() {
        for (auto& sm : g.sms_) sm->phase_log = nullptr;
      }
    } keep(g_, &phases);
    return launch(k);
  }
  void copy_into_l2(std::uint64_t addr, double bytes) override { g_.mem_->preload_l2(addr, bytes); }
  void flush() override { g_.flush_between_ops(); }

 private:
  Gpu& g_;
};

void Gpu::run_microbenchmarks() {
  UbenchAccess machine(*this);
  for (const IMicrobenchmark* b : ubench_) {
    if (const std::string why = b->cannot_run(*env_); !why.empty()) {
      UbenchSkip s{b->name(), why, {}};
      for (const std::string& f : b->figures()) {
        const std::string name = f.substr(0, f.find('|'));
        if (s.figures.empty() || s.figures.back() != name) s.figures.push_back(name);
      }
      ubench_skipped_.push_back(std::move(s));
      continue;
    }
    for (const auto& [figure, why] : b->skipped(*env_))
      ubench_skipped_.push_back(UbenchSkip{figure, why, {figure}});
    for (UbenchResult& r : b->run(machine)) ubench_results_.push_back(std::move(r));
  }
}

}  // namespace stcsim
