// The GPU running microbenchmarks (models/ubench) instead of GEMMs: each benchmark
// drives the GPU through UbenchMachine from the driver thread, from a flushed state.
#include "models/gpu/gpu.h"

namespace stcsim {

class Gpu::UbenchAccess : public UbenchMachine {
 public:
  explicit UbenchAccess(Gpu& g) : g_(g) {}
  const KernelEnv& env() const override { return *g_.env_; }
  double l2_bytes() const override { return g_.l2_bytes_; }
  double clock_mhz() const override { return g_.gpu_.run_clock_mhz(); }
  std::uint64_t allocate(double bytes) override { return g_.allocate(bytes); }
  Cycle launch(const KernelLaunch& k) override {
    const Cycle start = now_cycles();
    g_.run_kernel(k);
    return now_cycles() - start;
  }
  void copy_into_l2(std::uint64_t addr, double bytes) override { g_.mem_->preload_l2(addr, bytes); }
  void flush() override { g_.flush_between_ops(); }

 private:
  Gpu& g_;
};

void Gpu::run_microbenchmarks() {
  UbenchAccess machine(*this);
  for (const IMicrobenchmark* b : ubench_) {
    const std::string why = b->cannot_run(*env_);
    if (!why.empty()) {
      ubench_skipped_.emplace_back(b->name(), why);
      continue;
    }
    for (const auto& skip : b->skipped(*env_)) ubench_skipped_.push_back(skip);
    flush_between_ops();
    for (UbenchResult& r : b->run(machine)) ubench_results_.push_back(std::move(r));
  }
}

}  // namespace stcsim
