// Load latency: the counterparts of chase and line_latency in
// validation/ubench/memory_bench.cu. One thread follows a random cyclic chain (the CUDA
// program's own, std::shuffle over mt19937_64(7)) with dependent 4 B loads, 64 steps to
// warm the path and 4096 timed: L1 (16 KiB footprint, 128 B stride, ld.ca through the
// L1), L2 (an eighth of the L2, ld.cg) and DRAM (1 GiB, 32 KiB stride, ld.cg); clocks
// per load. The GPU repeats each chase five times, the DRAM one walking on so that no line
// is read twice; the model runs it once from the chain's head, as the first repetition. Then the
// per-line L2 latency from one SM: 512 lines 4 KiB apart, each chased 64 times after one warming
// load, split into the near and the far cluster at the largest gap between the sorted latencies, as
// the CUDA host code splits them. The chain reaches the GPU by cudaMemcpy, which leaves the
// buffer's last L2-full resident: the L2 holds it when the chase starts. Not modelled: address
// translation (the DRAM chase's 32 KiB stride misses the TLBs on a GPU).
#include <algorithm>
#include <numeric>
#include <random>

#include "models/kernels/l1_gather.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

constexpr int kWarmSteps = 64, kSteps = 4096, kLineSteps = 64, kLines = 512;
constexpr std::uint64_t kLineStride = 4096;

// Byte offsets of the chain's loads, in chase order from word 0 (make_chain's chain).
std::vector<std::uint64_t> chain_offsets(std::int64_t lines, std::int64_t stride, int loads) {
  std::vector<std::uint32_t> order(static_cast<std::size_t>(lines));
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(7));
  std::vector<std::uint32_t> next_line(static_cast<std::size_t>(lines));
  for (std::int64_t i = 0; i < lines; ++i)
    next_line[order[std::size_t(i)]] = order[std::size_t((i + 1) % lines)];
  std::vector<std::uint64_t> out;
  std::uint32_t j = 0;
  for (int i = 0; i < loads; ++i) {
    out.push_back(std::uint64_t(j) * std::uint64_t(stride));
    j = next_line[j];
  }
  return out;
}

// One thread's dependent loads at `addrs`; the clocks from load `timed_from` to the last
// one's data. `through_l1`: ld.ca (a hit costs the L1's latency), else ld.cg.
struct ChaseLaunch : UbenchLaunch {
  ChaseLaunch(std::vector<std::uint64_t> a, int from, bool l1)
      : UbenchLaunch(1, 1), addrs(std::move(a)), timed_from(from), through_l1(l1) {}
  std::vector<std::uint64_t> addrs;
  int timed_from;
  bool through_l1;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class ChaseCta : public CtaProgram {
 public:
  ChaseCta(const ChaseLaunch& k, SmContext& sm) : k_(k), sm_(sm) {}

  bool advance(Cycle now) override {
    if (waiting_) {  // the load submitted in the last pass is timed now
      waiting_ = false;
      wake_ = req_.done;
      return false;
    }
    if (next_ == k_.timed_from) start_ = now;
    if (next_ == int(k_.addrs.size())) {
      k_.cta_cycles[0] = now - start_;
      return true;
    }
    const std::uint64_t a = k_.addrs[std::size_t(next_++)];
    req_.reset();
    if (k_.through_l1)
      load_through_l1(sm_, a, a + 4, req_);
    else
      req_.runs.push_back(RowRun{a / 32 * 32, 32, 1, 0});  // the sector holding the word
    if (req_.empty()) {
      wake_ = now + sm_.spec.l1_hit_latency_cycles;
      return false;
    }
    sm_.submit(req_);
    waiting_ = true;
    wake_ = kPending;
    return false;
  }

 private:
  const ChaseLaunch& k_;
  SmContext& sm_;
  MemRequest req_;
  int next_ = 0;
  bool waiting_ = false;
  Cycle start_ = 0;
};

std::unique_ptr<CtaProgram> ChaseLaunch::start_cta(const CtaTask&, int, SmContext& sm) const {
  return std::make_unique<ChaseCta>(*this, sm);
}

class LatencyBench : public IMicrobenchmark {
 public:
  std::string name() const override { return "latency"; }
  std::vector<std::string> figures() const override {
    return {"l1_latency|latency", "l2_latency|latency", "dram_latency|latency",
            "l2_latency_near|latency", "l2_latency_far|latency"};
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    std::vector<UbenchResult> out;
    struct Level {
      const char* name;
      double bytes;
      std::int64_t stride;
      bool cached;
    };
    const Level levels[] = {
        {"l1_latency", 16 << 10, 128, true},
        {"l2_latency", std::max(double(1 << 20), gpu.l2_bytes() / 8), 128, false},
        {"dram_latency", double(1LL << 30), 1 << 15, false}};
    for (const Level& l : levels) {
      gpu.flush();
      const std::uint64_t buf = gpu.allocate(l.bytes);
      const double resident = std::min(l.bytes, gpu.l2_bytes());
      gpu.copy_into_l2(buf + std::uint64_t(l.bytes - resident), resident);
      std::vector<std::uint64_t> addrs =
          chain_offsets(std::int64_t(l.bytes) / l.stride, l.stride, kWarmSteps + kSteps);
      for (auto& a : addrs) a += buf;
      const ChaseLaunch k(std::move(addrs), kWarmSteps, l.cached);
      gpu.launch(k);
      UbenchResult r{l.name, "latency", "clk", "one thread, dependent loads along a random chain"};
      r.params = {{"footprint_bytes", l.bytes},
                  {"stride_bytes", l.stride},
                  {"load", l.cached ? "ld.ca" : "ld.cg"}};
      r.samples.push_back(k.cta_cycles[0] / kSteps);
      out.push_back(r);
    }
    for (UbenchResult& r : per_line(gpu)) out.push_back(r);
    return out;
  }

 private:
  static std::vector<UbenchResult> per_line(UbenchMachine& gpu) {
    gpu.flush();
    const std::uint64_t buf = gpu.allocate(double(kLines) * kLineStride);
    gpu.copy_into_l2(buf, double(kLines) * kLineStride);
    std::vector<double> lat;
    for (int l = 0; l < kLines; ++l) {
      const std::vector<std::uint64_t> addrs(kLineSteps + 1, buf + std::uint64_t(l) * kLineStride);
      const ChaseLaunch k(addrs, 1, false);
      gpu.launch(k);
      lat.push_back(k.cta_cycles[0] / kLineSteps);
    }
    std::sort(lat.begin(), lat.end());
    std::size_t cut = 1;  // the largest gap splits near from far
    for (std::size_t i = 1; i < lat.size(); ++i)
      if (lat[i] - lat[i - 1] > lat[cut] - lat[cut - 1]) cut = i;
    UbenchResult near{"l2_latency_near", "latency", "clk",
                      "per-line L2 latency from one SM, lower cluster"};
    UbenchResult far{"l2_latency_far", "latency", "clk",
                     "per-line L2 latency from one SM, upper cluster"};
    near.samples.assign(lat.begin(), lat.begin() + std::ptrdiff_t(cut));
    far.samples.assign(lat.begin() + std::ptrdiff_t(cut), lat.end());
    near.params = far.params = {{"sm", 0},
                                {"lines", kLines},
                                {"line_stride_bytes", kLineStride},
                                {"split_at_clk", 0.5 * (lat[cut] + lat[cut - 1])}};
    return {near, far};
  }
};
const UbenchRegistrar<LatencyBench> reg;

}  // namespace

}  // namespace stcsim
