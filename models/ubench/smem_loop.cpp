// ld.shared.v4 and ldmatrix x1/x2/x4 throughput: the counterparts of smem_loop in
// validation/ubench/memory_bench.cu. Every SM runs one CTA of 1024 threads; each warp
// issues one access per iteration at the CUDA program's addresses (thread t of warp w at
// 16 (32 w + t) mod 32 KiB, alternating between two windows 512 B apart), and the
// figure is bytes per clock per SM from each CTA's clock span. The shared-memory port
// serves each access's wavefronts (bank conflicts from the real addresses). A warp issues
// its next access the cycle after the last, each sub-core one memory instruction per
// cycle; the loop's other instructions (address and XOR arithmetic) are not modelled.
#include <algorithm>

#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

constexpr int kThreads = 1024, kIters = 4096;

struct SmemLoopLaunch : UbenchLaunch {
  // rows: 0 for ld.shared.v4 (every thread 16 B), else ldmatrix's matrices (1, 2, 4),
  // each one phase of 8 row addresses of 16 B.
  SmemLoopLaunch(int grid, int rows, const ISharedMemory& smem) : UbenchLaunch(grid, 1) {
    for (int window = 0; window < 2; ++window)
      for (int w = 0; w < kThreads / 32; ++w) {
        std::vector<std::uint32_t> addr(32);
        for (int t = 0; t < 32; ++t)
          addr[std::size_t(t)] =
              ((std::uint32_t(w * 32 + t) * 16) % 32768) ^ std::uint32_t(512 * window);
        int wf = 0;
        if (rows == 0) {
          wf = smem.wavefronts(addr, 16);
        } else {
          for (int p = 0; p < rows; ++p)
            wf += smem.wavefronts({addr.begin() + 8 * p, addr.begin() + 8 * p + 8}, 16);
        }
        wavefronts[std::size_t(window)].push_back(wf);
      }
  }
  std::vector<int> wavefronts[2];  // per window, per warp
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class SmemLoopCta : public SmLocalCta {
 public:
  SmemLoopCta(const SmemLoopLaunch& k, const CtaTask& t, SmContext& sm)
      : SmLocalCta(k, t, sm), k_(k) {}

 private:
  Cycle run(Cycle now) override {
    const int warps = kThreads / 32, nsub = int(sm_.pipes.size());
    std::vector<Cycle> issue(std::size_t(warps), now - 1);  // each warp's last issue
    std::vector<Timeline> dispatch(
        static_cast<std::size_t>(nsub));  // a sub-core's memory instructions
    Cycle end = now;
    for (int it = 0; it < kIters; ++it)
      for (int w = 0; w < warps; ++w) {
        const Cycle at = dispatch[std::size_t(w % nsub)].reserve(issue[std::size_t(w)] + 1, 1);
        issue[std::size_t(w)] = at;
        end = std::max(end, sm_.smem.read(at, k_.wavefronts[it % 2][std::size_t(w)]));
      }
    return end;
  }

  const SmemLoopLaunch& k_;
};

std::unique_ptr<CtaProgram> SmemLoopLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<SmemLoopCta>(*this, t, sm);
}

class SmemLoopBench : public IMicrobenchmark {
 public:
  SmemLoopBench(std::string group, std::string figure, int rows, double bytes_per_warp_op)
      : group_(std::move(group)),
        figure_(std::move(figure)),
        rows_(rows),
        bytes_(bytes_per_warp_op) {}
  std::string name() const override { return group_; }
  std::vector<std::string> figures() const override { return {figure_ + "|throughput"}; }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    UbenchResult r{figure_, "throughput", "B/clk/SM",
                   "every SM, 1 CTA of 1024 threads, conflict-free addresses"};
    r.params = {{"threads", kThreads}, {"iterations", kIters}};
    const SmemLoopLaunch k(gpu.env().num_sms, rows_, gpu.env().smem);
    gpu.launch(k);
    for (Cycle c : k.cta_cycles) r.samples.push_back(bytes_ * 32 * kIters / c);
    return {r};
  }

 private:
  std::string group_, figure_;
  int rows_;
  double bytes_;
};

struct LdShared : SmemLoopBench {
  LdShared() : SmemLoopBench("ld_shared", "ld_shared_v4", 0, 512) {}
};
struct Ldmatrix1 : SmemLoopBench {
  Ldmatrix1() : SmemLoopBench("ldmatrix_x1", "ldmatrix_x1", 1, 128) {}
};
struct Ldmatrix2 : SmemLoopBench {
  Ldmatrix2() : SmemLoopBench("ldmatrix_x2", "ldmatrix_x2", 2, 256) {}
};
struct Ldmatrix4 : SmemLoopBench {
  Ldmatrix4() : SmemLoopBench("ldmatrix_x4", "ldmatrix_x4", 4, 512) {}
};
const UbenchRegistrar<LdShared> reg_lds;
const UbenchRegistrar<Ldmatrix1> reg_x1;
const UbenchRegistrar<Ldmatrix2> reg_x2;
const UbenchRegistrar<Ldmatrix4> reg_x4;

}  // namespace

}  // namespace stcsim
