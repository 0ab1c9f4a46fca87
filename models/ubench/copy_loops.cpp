// The asynchronous copy paths from DRAM into shared memory: the counterparts of
// cp_async_loop and bulk_copy_loop in validation/ubench/memory_bench.cu, at their
// addresses: a 4 GiB source read grid-stride (CTA b's iteration i at (i * grid + b) times
// the bytes of one iteration), so that every line comes from DRAM.
//   cp.async: every SM, 256 threads each copying 16 B per iteration (4 KiB per CTA,
//             .cg: past the L1), one commit group per iteration and wait_group 0 after
//             every 8th; and the sweep of 1 to 16 groups before each wait, from DRAM and
//             from a source resident in the L2 (a quarter of it, brought in first); and
//             the L2 sweep again on half lines (each 16 B copy of the first 64 B of a
//             128 B line, the next line 128 B on: the 2:4 kernel's compressed A rows are
//             64 B a k-tile), the same bytes over twice the lines; and the L2 sweep on
//             one SM alone (a grid of one CTA), 1 to 32 groups: no other SM shares the
//             L2, so what caps it is the SM's own path there (its link).
//   bulk copy (TMA present): one thread issuing cp.async.bulk of 16 KiB, two in flight,
//             each completing on an mbarrier; the TMA unit spends its issue time per copy.
// A request is done when its data is in shared memory (models/memory/memory_system.h);
// the port's writes (under 20 B per clock per SM at DRAM rates, against 128) are not
// what limits either loop, so they are not charged apart.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "models/common/link_fit.h"
#include "models/ubench/microbenchmark.h"
#include "models/ubench/request_window.h"

namespace stcsim {

namespace {

constexpr double kSourceBytes = double(1LL << 32);
constexpr int kCpThreads = 256, kCpIters = 2048, kCpGroup = 8;
constexpr int kBulkIters = 1024, kBulkInFlight = 2;
constexpr double kCpBytes = kCpThreads * 16.0, kBulkBytes = 16384;

constexpr int kSweepGroups[] = {1, 2, 4, 8, 16};
constexpr int kOneSmGroups[] = {1, 2, 4, 8, 16, 32};
constexpr int kSweepIters = 1024;

// The sweeps: 0 from DRAM, 1 from L2, 2 from L2 on half lines, 3 from L2 on one SM.
constexpr int kSweeps = 4;
bool sweep_from_l2(int sweep) { return sweep > 0; }
bool sweep_half_lines(int sweep) { return sweep == 2; }
bool sweep_one_sm(int sweep) { return sweep == 3; }
std::vector<int> sweep_groups(int sweep) {
  if (sweep_one_sm(sweep)) return {std::begin(kOneSmGroups), std::end(kOneSmGroups)};
  return {std::begin(kSweepGroups), std::end(kSweepGroups)};
}

std::string sweep_name(int sweep, int group) {
  return std::string("cp_async_16B_") + (sweep_from_l2(sweep) ? "l2" : "dram") +
         (sweep_half_lines(sweep) ? "_halfline" : "") + (sweep_one_sm(sweep) ? "_one_sm" : "") +
         "_inflight_" + std::to_string(4 * group) + "KiB";
}

struct CopyLaunch : UbenchLaunch {
  CopyLaunch(int grid, std::uint64_t src, bool bulk, int iters, int group, double source_bytes,
             bool half_lines = false)
      : UbenchLaunch(grid, 1),
        src(src),
        bulk(bulk),
        iters(iters),
        group(group),
        source_bytes(source_bytes),
        half_lines(half_lines) {}
  std::uint64_t src;
  bool bulk;
  int iters;            // per CTA
  int group;            // cp.async: iterations in flight before each wait_group 0
  double source_bytes;  // the offsets wrap here (the bytes copied, not the lines' span)
  bool half_lines;      // each copied 64 B in its own 128 B line (source spans twice its bytes)
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class CopyCta : public CtaProgram {
 public:
  CopyCta(const CopyLaunch& k, const CtaTask& t, SmContext& sm)
      : k_(k), blk_(t.panel), sm_(sm), window_(k.bulk ? kBulkInFlight : k.group) {}

  bool advance(Cycle now) override {
    if (start_ < 0) start_ = now;
    const Cycle last = window_.retire(now);
    const int iters = k_.iters;
    // cp.async: the next group starts once the last one has landed (wait_group 0).
    const bool may_issue = k_.bulk || window_.empty();
    Cycle blocked = now + 1;  // when a bulk copy that could not go yet may go
    bool submitted = false;
    while (may_issue && next_ < iters && window_.has_free()) {
      if (k_.bulk) {
        // The thread waits on the mbarrier of the copy whose buffer it reuses, then hands
        // the TMA unit the copy.
        const Cycle seen = sm_.tma.observed(last);
        if (!reached(seen, now)) {
          blocked = seen;
          break;
        }
        if (tma_at_ < 0) tma_at_ = sm_.tma.issue(now, 1);
        if (!reached(tma_at_, now)) {
          blocked = tma_at_;
          break;
        }
        tma_at_ = -1;
      }
      MemRequest* r = window_.free_slot();
      const double bytes = k_.bulk ? kBulkBytes : kCpBytes;
      const double grid = double(k_.ctas.size());
      const double off = std::fmod((double(next_) * grid + blk_) * bytes, k_.source_bytes);
      if (k_.half_lines)  // 4 KiB as 64 rows of 64 B, one a line
        r->runs.push_back(RowRun{k_.src + 2 * std::uint64_t(off), 64, std::uint32_t(bytes / 64),
                                 MemRequest::kLineBytes});
      else
        r->runs.push_back(RowRun{k_.src + std::uint64_t(off), std::uint32_t(bytes), 1, 0});
      sm_.submit(*r);
      ++next_;
      submitted = true;
      if (!k_.bulk && next_ % k_.group == 0) break;  // commit ... wait_group 0
    }
    if (submitted) {
      wake_ = kPending;
      return false;
    }
    if (next_ < iters && window_.has_free() && may_issue) {
      wake_ = std::min(blocked, window_.next_landing());
      return false;
    }
    if (!window_.empty()) {
      wake_ = window_.next_landing();
      return false;
    }
    // A bulk copy is seen when the mbarrier's phase flips.
    k_.cta_cycles[std::size_t(blk_)] = (k_.bulk ? sm_.tma.observed(last) : last) - start_;
    return true;
  }

 private:
  const CopyLaunch& k_;
  int blk_;
  SmContext& sm_;
  RequestWindow window_;
  int next_ = 0;
  Cycle start_ = -1, tma_at_ = -1;
};

std::unique_ptr<CtaProgram> CopyLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<CopyCta>(*this, t, sm);
}

// The one-SM sweep's line as two figures: the link's bytes per clock and the round trip.
void add_link_fit(const std::vector<double>& group_bytes, const std::vector<double>& rates,
                  std::vector<UbenchResult>& out) {
  const LinkFit f = fit_link(group_bytes, rates);
  UbenchResult link{kOneSmLinkFigure, "throughput", "B/clk/SM", kLinkFitWhat};
  UbenchResult trip{kOneSmRoundTripFigure, "latency", "clk", kLinkFitWhat};
  link.samples.push_back(f.bytes_per_cycle);
  trip.samples.push_back(f.round_trip_cycles);
  out.push_back(link);
  out.push_back(trip);
}

class CopyEnginesBench : public IMicrobenchmark {
 public:
  std::string name() const override { return "copy_engines"; }
  std::vector<std::string> figures() const override {
    std::vector<std::string> f = {"cp_async_16B_dram|bandwidth", "cp_async_16B_dram|throughput",
                                  "bulk_copy_16KiB_dram|bandwidth",
                                  "bulk_copy_16KiB_dram|throughput"};
    for (int sweep = 0; sweep < kSweeps; ++sweep)
      for (int g : sweep_groups(sweep)) f.push_back(sweep_name(sweep, g) + "|throughput");
    f.push_back(std::string(kOneSmLinkFigure) + "|throughput");
    f.push_back(std::string(kOneSmRoundTripFigure) + "|latency");
    return f;
  }
  std::vector<std::pair<std::string, std::string>> skipped(const KernelEnv& env) const override {
    if (env.tma.present()) return {};
    return {{"bulk_copy_16KiB_dram", "no TMA unit (tma.impl none): cp.async.bulk needs sm_90"}};
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    const int sms = gpu.env().num_sms;
    std::vector<UbenchResult> out;
    for (bool bulk : {false, true}) {
      if (bulk && !gpu.env().tma.present()) break;  // the CUDA program needs sm_90
      gpu.flush();
      const std::uint64_t src = gpu.allocate(kSourceBytes);
      const int iters = bulk ? kBulkIters : kCpIters;
      const std::string name = bulk ? "bulk_copy_16KiB_dram" : "cp_async_16B_dram";
      const std::string what =
          bulk ? "every SM, one thread issuing cp.async.bulk of 16 KiB to shared, 2 in flight, "
                 "mbarrier"
               : "every SM, 256 threads, 16 B cp.async.cg into shared";
      UbenchResult gbs{name, "bandwidth", "GB/s", what};
      UbenchResult per{name, "throughput", "B/clk/SM", what};
      gbs.params = per.params = {{"iterations", iters}, {"source_bytes", kSourceBytes}};
      if (!bulk) gbs.params["threads"] = per.params["threads"] = kCpThreads;
      const CopyLaunch k(sms, src, bulk, iters, kCpGroup, kSourceBytes);
      const Cycle cycles = gpu.launch(k);
      const double cta_bytes = (bulk ? kBulkBytes : kCpBytes) * iters;
      gbs.samples.push_back(sms * cta_bytes / (cycles / (gpu.clock_mhz() * 1e6)) * 1e-9);
      for (Cycle c : k.cta_cycles) per.samples.push_back(cta_bytes / c);
      out.push_back(gbs);
      out.push_back(per);
    }
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      const bool from_l2 = sweep_from_l2(sweep), half = sweep_half_lines(sweep);
      const bool one_sm = sweep_one_sm(sweep);
      // From DRAM: half the source, as the CUDA program reads (it alternates halves).
      const double bytes =
          from_l2 ? std::max(double(1 << 20), gpu.l2_bytes() / 4) : kSourceBytes / 2;
      const double span = half ? 2 * bytes : bytes;  // half lines: every other 64 B
      std::vector<double> group_bytes, rates;        // one SM: the sweep's line
      for (int g : sweep_groups(sweep)) {
        gpu.flush();
        const std::uint64_t src = gpu.allocate(span);
        if (from_l2) gpu.copy_into_l2(src, span);  // the CUDA program's uncounted first launch
        const std::string name = sweep_name(sweep, g);
        UbenchResult per{name, "throughput", "B/clk/SM",
                         std::string(one_sm ? "one SM alone (a grid of 1 CTA)" : "every SM") +
                             ", 256 threads, 16 B cp.async.cg into shared, " + std::to_string(g) +
                             " per thread before each wait_group 0" +
                             (from_l2 ? ", source resident in L2" : "") +
                             (half ? ", the first 64 B of each 128 B line" : "")};
        per.params = {{"threads", kCpThreads},
                      {"iterations", kSweepIters},
                      {"group", g},
                      {"source_bytes", bytes}};
        if (half) per.params["half_lines"] = true;
        if (one_sm) per.params["grid"] = 1;
        const CopyLaunch k(one_sm ? 1 : sms, src, false, kSweepIters, g, bytes, half);
        gpu.launch(k);
        for (Cycle c : k.cta_cycles) per.samples.push_back(kCpBytes * kSweepIters / c);
        group_bytes.push_back(kCpBytes * g);
        rates.push_back(per.median());
        out.push_back(per);
      }
      if (one_sm) add_link_fit(group_bytes, rates, out);
    }
    return out;
  }
};
const UbenchRegistrar<CopyEnginesBench> reg;

}  // namespace

}  // namespace stcsim
