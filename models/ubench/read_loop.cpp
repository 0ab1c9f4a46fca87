// L2 and DRAM read bandwidth: the counterparts of read_loop in
// validation/ubench/memory_bench.cu. Every SM runs 4 CTAs of 512 threads reading a
// buffer with 16 B ld.global.cg (bypassing the L1) in a grid-stride loop, so CTA b's
// iteration j reads the 8 KiB at (j * grid + b) * 8 KiB; the L2 set (a quarter of the L2,
// at least 1 MiB) is read 20 times after a warm pass, the DRAM set (2 GiB) once. GB/s
// from the launch's time at the SM clock; bytes per clock per SM from the longest CTA.
// Each CTA keeps kLoadsInFlight iterations outstanding: the loop's independent loads,
// as many as an unroll by four issues before the first use.
#include <algorithm>

#include "models/ubench/microbenchmark.h"
#include "models/ubench/request_window.h"

namespace stcsim {

namespace {

constexpr int kThreads = 512, kCtasPerSm = 4, kLoadsInFlight = 4;
constexpr double kCtaBytes = kThreads * 16.0;  // one iteration of a CTA

struct ReadLoopLaunch : UbenchLaunch {
  ReadLoopLaunch(int grid, std::uint64_t b, double n, int p)
      : UbenchLaunch(grid, kCtasPerSm), base(b), bytes(n), passes(p) {}
  std::uint64_t base;
  double bytes;
  int passes;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class ReadLoopCta : public CtaProgram {
 public:
  ReadLoopCta(const ReadLoopLaunch& k, const CtaTask& t, SmContext& sm)
      : k_(k), blk_(t.panel), sm_(sm), window_(kLoadsInFlight) {
    const double grid_bytes = kCtaBytes * double(k.ctas.size());
    per_pass_ = std::int64_t((k.bytes - blk_ * kCtaBytes + grid_bytes - 1) / grid_bytes);
  }

  bool advance(Cycle now) override {
    if (start_ < 0) start_ = now;
    const Cycle last = window_.retire(now);
    bool submitted = false;
    while (next_ < per_pass_ * k_.passes) {
      MemRequest* r = window_.free_slot();
      if (!r) break;
      const double grid = double(k_.ctas.size());
      const double off = (double(next_ % per_pass_) * grid + blk_) * kCtaBytes;
      const double len = std::min(kCtaBytes, k_.bytes - off);
      r->runs.push_back(RowRun{k_.base + std::uint64_t(off), std::uint32_t(len), 1, 0});
      sm_.submit(*r);
      ++next_;
      submitted = true;
    }
    if (submitted) {
      wake_ = kPending;
      return false;
    }
    if (!window_.empty()) {
      wake_ = window_.next_landing();
      return false;
    }
    k_.cta_cycles[std::size_t(blk_)] = std::max(last, start_) - start_;  // 0: no iteration
    return true;
  }

 private:
  const ReadLoopLaunch& k_;
  int blk_;
  SmContext& sm_;
  RequestWindow window_;
  std::int64_t per_pass_ = 0, next_ = 0;
  Cycle start_ = -1;
};

std::unique_ptr<CtaProgram> ReadLoopLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<ReadLoopCta>(*this, t, sm);
}

class ReadBandwidthBench : public IMicrobenchmark {
 public:
  std::string name() const override { return "bandwidth"; }
  std::vector<std::string> figures() const override {
    return {"l2_read|bandwidth", "l2_read|throughput", "dram_read|bandwidth",
            "dram_read|throughput"};
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    const int sms = gpu.env().num_sms, grid = sms * kCtasPerSm;
    struct Set {
      const char* name;
      double bytes;
      int passes;
    };
    const double l2_set = std::max(double(1 << 20), gpu.l2_bytes() / 4);
    std::vector<UbenchResult> out;
    for (const Set& set : {Set{"l2_read", l2_set, 20}, Set{"dram_read", double(2LL << 30), 1}}) {
      gpu.flush();
      const std::uint64_t buf = gpu.allocate(set.bytes);
      UbenchResult gbs{set.name, "bandwidth", "GB/s",
                       "every SM, 4 CTAs of 512 threads, 16 B ld.global.cg"};
      UbenchResult per{set.name, "throughput", "B/clk/SM", gbs.what};
      gbs.params = per.params = {{"bytes", set.bytes}, {"passes", set.passes}};
      // The warm pass: the L2 set is resident afterwards. A 2 GiB pass leaves only its
      // last L2-full, which the timed pass evicts before it reaches it: not simulated.
      if (set.passes > 1) gpu.launch(ReadLoopLaunch(grid, buf, set.bytes, 1));
      const ReadLoopLaunch k(grid, buf, set.bytes, set.passes);
      const Cycle cycles = gpu.launch(k);
      const double seconds = cycles / (gpu.clock_mhz() * 1e6);
      gbs.samples.push_back(set.bytes * set.passes / seconds * 1e-9);
      const Cycle longest = *std::max_element(k.cta_cycles.begin(), k.cta_cycles.end());
      per.samples.push_back(set.bytes * set.passes / sms / longest);
      out.push_back(gbs);
      out.push_back(per);
    }
    return out;
  }
};
const UbenchRegistrar<ReadBandwidthBench> reg;

}  // namespace

}  // namespace stcsim
