// A microbenchmark run on the modelled GPU: the counterpart of one group of
// validation/ubench (the CUDA microbenchmarks), the same launch shape, access pattern
// and measurement, so each figure measured on a GPU is checked against the model's own
// (`stcsim ubench`, and `stcsim validate` on stcsim-ubench/1 files). Each figure is
// computed the way the CUDA program computes it: per-CTA clock spans (clock64 from a
// CTA's first instruction to its last result) or a launch's elapsed time (CUDA events),
// over the same bytes, instructions and iterations.
//
// Contract: a benchmark names its group (validation/ubench's --only name) and the
// figures ("name|metric") it yields; cannot_run says why a GPU lacks what it needs
// (e.g. no TMA); run() drives the machine from the GPU's own SystemC thread (launches
// run to completion before it returns) and returns figures in the schema's units. One
// run per figure and configuration: the model is deterministic, so the CUDA program's
// five repetitions would repeat the same samples.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/kernels/i_kernel.h"
#include "models/sm/cta_program.h"

namespace stcsim {

// One figure as stcsim-ubench/1 writes it (validation/ubench/ubench.h): value = median.
struct UbenchResult {
  UbenchResult(std::string n, std::string m, std::string u, std::string w)
      : name(std::move(n)), metric(std::move(m)), unit(std::move(u)), what(std::move(w)) {}
  std::string name, metric, unit, what;  // metric: throughput, latency, bandwidth
  std::vector<double> samples;
  nlohmann::json params = nlohmann::json::object();
  double median() const;
  nlohmann::json to_json() const;
};

// A benchmark (or some of its figures) the GPU cannot run: its name, why, and the
// names of the figures it leaves out.
struct UbenchSkip {
  std::string name, why;
  std::vector<std::string> figures;
};

// What a benchmark may do with the GPU it runs on (implemented by Gpu).
class UbenchMachine {
 public:
  virtual ~UbenchMachine() = default;
  virtual const KernelEnv& env() const = 0;
  virtual double l2_bytes() const = 0;   // the L2's capacity (cudaDevAttrL2CacheSize)
  virtual double clock_mhz() const = 0;  // the SM clock the run is at (events -> seconds)
  // The SM clock under a GEMM's load (gpu.clock_mhz, or a measured one below it): what a
  // benchmark that runs a GEMM's mainloop times its launches at.
  virtual double gemm_clock_mhz() const = 0;
  virtual std::uint64_t allocate(double bytes) = 0;  // like cudaMalloc
  // Run `k` from now until its last CTA retires; its elapsed cycles.
  virtual Cycle launch(const KernelLaunch& k) = 0;
  // The same, also keeping each multistage CTA's phases (models/common/cta_phases.h) in
  // `phases`, in the order the CTAs retire.
  virtual Cycle launch(const KernelLaunch& k, std::vector<CtaPhaseRecord>& phases) = 0;
  // What a host-to-device copy of [addr, addr + bytes) leaves: its lines resident in the
  // L2 (clean; untimed). Lines beyond the L2's capacity evict earlier ones as usual.
  virtual void copy_into_l2(std::uint64_t addr, double bytes) = 0;
  // Drain the memory system and empty the L2 and the L1s (between benchmarks).
  virtual void flush() = 0;
};

class IMicrobenchmark {
 public:
  virtual ~IMicrobenchmark() = default;
  virtual std::string name() const = 0;
  virtual std::vector<std::string> figures() const = 0;  // "name|metric"
  virtual std::string cannot_run(const KernelEnv& /*env*/) const { return {}; }
  // Figures of a benchmark that runs which this GPU cannot yield, as (figure name, why).
  virtual std::vector<std::pair<std::string, std::string>> skipped(const KernelEnv& /*env*/) const {
    return {};
  }
  virtual std::vector<UbenchResult> run(UbenchMachine& gpu) const = 0;
};

// The registered benchmarks.
class UbenchRegistry {
 public:
  static void add(std::unique_ptr<IMicrobenchmark> b);
  static std::vector<const IMicrobenchmark*> all();             // by name
  static const IMicrobenchmark* find(const std::string& name);  // null when unknown
};

template <class B>
struct UbenchRegistrar {
  UbenchRegistrar() { UbenchRegistry::add(std::make_unique<B>()); }
};

// A launch of `grid` CTAs, `ctas_per_sm` resident per SM, CTA i with panel = i (its
// blockIdx.x). Its CTAs write their clock spans into cta_cycles[blockIdx] when they
// retire, as the CUDA programs write theirs to a device buffer.
struct UbenchLaunch : KernelLaunch {
  UbenchLaunch(int grid, int per_sm) : cta_cycles(std::size_t(grid), 0) {
    ctas_per_sm = per_sm;
    ctas.resize(std::size_t(grid));
    for (int i = 0; i < grid; ++i) ctas[std::size_t(i)].panel = i;
  }
  mutable std::vector<Cycle> cta_cycles;
};

// A CTA whose program uses only its SM's own units (pipes, the shared-memory port), so
// it is timed whole when it starts: run(now) reserves them and returns the cycle its
// last result is ready; the CTA retires then, its span written to the launch.
class SmLocalCta : public CtaProgram {
 public:
  SmLocalCta(const UbenchLaunch& k, const CtaTask& t, SmContext& sm)
      : sm_(sm), launch_(k), blk_(std::size_t(t.panel)) {}
  bool advance(Cycle now) override {
    if (end_ < 0) {
      start_ = now;
      end_ = run(now);
      wake_ = end_;
    }
    if (!reached(end_, now)) return false;
    launch_.cta_cycles[blk_] = end_ - start_;
    return true;
  }

 protected:
  virtual Cycle run(Cycle now) = 0;
  SmContext& sm_;

 private:
  const UbenchLaunch& launch_;
  std::size_t blk_;
  Cycle start_ = 0, end_ = -1;
};

}  // namespace stcsim
