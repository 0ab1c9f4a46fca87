// Steady-state mode (Gpu::set_steady_state, models/sm/steady_state.h): the launch runs
// with a detector watching its dispatches; once a period settles, the scheduler stops at
// the cut and the op's time and counters gain the periods left.
#include <algorithm>
#include <cmath>
#include <map>

#include "models/gpu/gpu.h"
#include "models/sm/steady_state.h"

namespace stcsim {

namespace {

constexpr const char* kSteady = "gpu (--mode steady)";
// How alike two periods' counters must be (tensor and shared-memory busy cycles, L2
// sectors read, DRAM bytes): the time's own test is the detector's, per dispatch.
constexpr double kCounterTolerance = 0.01;
const OpStat steady_extrapolated{
    {"steady_state.extrapolated", "0/1",
     "under --mode steady: 1 when the op's time and counters are a run cut once its dispatches "
     "repeated with a period of whole waves, plus the periods left; 0 when it was simulated in "
     "full (steady_state.fallback says why)",
     StatTotal::kNone, kSteady},
    stat_slot<OpResult>()};
const OpStat steady_period_waves{
    {"steady_state.period_waves", "waves",
     "the period the dispatches repeated with, in waves of CTAs", StatTotal::kNone, kSteady},
    stat_slot<OpResult>()};
const OpStat steady_period_cycles{{"steady_state.period_cycles", "cycles",
                                   "the period's length: each CTA handed out this long after its "
                                   "counterpart a period before",
                                   StatTotal::kNone, kSteady},
                                  stat_slot<OpResult>()};
const OpStat steady_periods{
    {"steady_state.periods_skipped", "periods",
     "periods not simulated, added to the time and counters instead", StatTotal::kNone, kSteady},
    stat_slot<OpResult>()};
const OpStat steady_ctas{
    {"steady_state.ctas_simulated", "CTAs",
     "CTAs simulated (of `ctas`); the rest are the periods skipped", StatTotal::kNone, kSteady},
    stat_slot<OpResult>()};
const OpStat steady_fallback{
    {"steady_state.fallback", "-", "under --mode steady, why the op was simulated in full",
     StatTotal::kNone, kSteady},
    stat_slot<OpResult>()};

}  // namespace

void Gpu::Snapshot::add_scaled(const Snapshot& hi, const Snapshot& lo, double k) {
  tensor += k * (hi.tensor - lo.tensor);
  tensor_work += k * (hi.tensor_work - lo.tensor_work);
  smem += k * (hi.smem - lo.smem);
  l2 += k * (hi.l2 - lo.l2);
  dram += k * (hi.dram - lo.dram);
  link += k * (hi.link - lo.link);
  index_wait += k * (hi.index_wait - lo.index_wait);
  cta_cycles += k * (hi.cta_cycles - lo.cta_cycles);
  cuda += k * (hi.cuda - lo.cuda);
  l1_sectors += k * (hi.l1_sectors - lo.l1_sectors);
  l1_hits += k * (hi.l1_hits - lo.l1_hits);
  mem.l2_read_sectors += k * (hi.mem.l2_read_sectors - lo.mem.l2_read_sectors);
  mem.l2_read_miss_sectors += k * (hi.mem.l2_read_miss_sectors - lo.mem.l2_read_miss_sectors);
  mem.l2_write_sectors += k * (hi.mem.l2_write_sectors - lo.mem.l2_write_sectors);
  mem.dram_read_bytes += k * (hi.mem.dram_read_bytes - lo.mem.dram_read_bytes);
  mem.dram_write_bytes += k * (hi.mem.dram_write_bytes - lo.mem.dram_write_bytes);
  mem.link_bytes += k * (hi.mem.link_bytes - lo.mem.link_bytes);
  for (int i = 0; i < int(StallCause::kCount); ++i)
    stalls.cycles[i] += k * (hi.stalls.cycles[i] - lo.stalls.cycles[i]);
}

void Gpu::run_kernel_steady(const KernelLaunch& k, SteadyOutcome& out, Snapshot& period_growth) {
  const std::size_t slots = std::size_t(gpu_.num_sms) * std::size_t(std::max(1, k.ctas_per_sm));
  const SteadyStateOptions opts;
  SteadyStateDetector detector(k.ctas.size(), slots, opts);
  // The counters at the last wave boundaries: a period found at a boundary, and the two
  // before it, began at them.
  std::map<std::size_t, Snapshot> marks;
  // (one wave more than a period found at the last boundary reaches back: 2 x 4 waves)
  const std::size_t keep = (2 * std::size_t(opts.max_period_waves) + 1) * slots;
  // The periods skipped are charged the counters' mean growth per CTA over every steady
  // CTA simulated (from the end of the warm-up), not over the last period only: the
  // traffic of a rasterisation repeats over its panels (512 CTAs, 2.37 waves, on an a100's
  // 8192^3), which the dispatch times do not show. (Whole panels were tried as the window
  // and were further off: docs/simulator_speed.md.)
  const std::size_t warm_end = std::size_t(detector.warmup_waves()) * slots - 1;
  Snapshot at_warm_end;
  // The counters must repeat too: the work of the last period as of the one before, in
  // what the memory side moved as well as in the pipes.
  auto repeats = [&](const SteadyCut& c) {
    const Snapshot& a = marks.at(c.mark);
    const Snapshot& b = marks.at(c.mark - c.period_ctas);
    const Snapshot& z = marks.at(c.mark - 2 * c.period_ctas);
    auto alike = [](double last, double before) {
      return std::abs(last - before) <= kCounterTolerance * std::max(std::abs(last), 1.0);
    };
    auto dram = [](const Snapshot& x) { return x.mem.dram_read_bytes + x.mem.dram_write_bytes; };
    return alike(a.tensor - b.tensor, b.tensor - z.tensor) &&
           alike(a.smem - b.smem, b.smem - z.smem) &&
           alike(a.mem.l2_read_sectors - b.mem.l2_read_sectors,
                 b.mem.l2_read_sectors - z.mem.l2_read_sectors) &&
           alike(dram(a) - dram(b), dram(b) - dram(z));
  };
  run_kernel(k, [&](std::size_t i) {
    if (detector.wave_boundary(i)) {
      marks[i] = snapshot();
      if (i == warm_end) at_warm_end = marks[i];
      while (!marks.empty() && marks.begin()->first + keep < i) marks.erase(marks.begin());
    }
    const std::optional<SteadyCut> cut = detector.on_dispatch(i, now_cycles(), repeats);
    if (!cut) return;
    sched_->stop_at(cut->stop_at);
    out.cut = true;
    out.period_waves = double(cut->period_ctas) / double(slots);
    out.period_cycles = cut->period_cycles;
    out.periods = cut->periods;
    out.ctas_simulated = cut->stop_at;
    period_growth = Snapshot{};
    period_growth.add_scaled(marks.at(cut->mark), at_warm_end,
                             double(cut->period_ctas) / double(cut->mark - warm_end));
  });
  if (out.cut) return;
  out.ctas_simulated = k.ctas.size();
  out.fallback = detector.why_not();
}

void Gpu::report_steady(const SteadyOutcome& s, OpResult& r) {
  r.stats.set(steady_extrapolated.info(), std::int64_t(s.cut ? 1 : 0));
  if (s.cut) {
    r.stats.set(steady_period_waves.info(), s.period_waves);
    r.stats.set(steady_period_cycles.info(), s.period_cycles);
    r.stats.set(steady_periods.info(), s.periods);
    r.stats.set(steady_ctas.info(), std::int64_t(s.ctas_simulated));
  } else {
    r.stats.set(steady_fallback.info(), s.fallback);
  }
}

}  // namespace stcsim
