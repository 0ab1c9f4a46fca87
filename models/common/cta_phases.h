// A multistage CTA's phases as the GPU's clock64 stamps and the model's cycles both see
// them, and the medians the CTA-phase microbenchmark reports from them (shared by the
// model, models/ubench/cta_phases.cpp, and the GPU harness, validation/ubench/
// mainloop_bench.cu, so both reduce their records the same way). Header-only: the CUDA
// harness includes it without the model's library.
//
// Why: the K sweeps of the mainloop anatomy put 15-35 us a launch at 4096^2 in what each
// CTA pays once, and the model has a quarter of it (docs/notes.md, session 28). The
// whole-launch times cannot say whether that is the prologue, the epilogue, the gap before
// the next CTA starts on the SM, or co-resident CTAs that do not hide each other's
// prologue behind their loops (the model staggers them; the GPU may run them in step).
#pragma once
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "models/common/median.h"

namespace stcsim {

// One CTA, in its SM's cycles (clock64 on the GPU: each SM counts its own, so only
// differences on one SM mean anything). prologue_done: its prologue's stages have landed
// and every warp passed the barrier after them; loop_done: every warp is through the
// mainloop; end: every thread has issued its epilogue's stores.
struct CtaPhaseRecord {
  int sm = 0;
  double start = 0, prologue_done = 0, loop_done = 0, end = 0;
};

// Medians over a launch's CTAs, cycles. refill: from the last CTA to end on an SM before a
// CTA starts there to that start (the CTA's launch in the retired one's place). corun_skew:
// for a CTA that starts while another runs on its SM, how long after that one's start
// (the latest such); near 0 when co-resident CTAs run in step, half a CTA's span when they
// alternate. NaN where no CTA qualifies (refill: a single wave; corun_skew: one CTA an SM).
struct CtaPhaseSummary {
  double prologue = NAN, loop = NAN, epilogue = NAN, refill = NAN, corun_skew = NAN;
};

inline CtaPhaseSummary summarize_cta_phases(const std::vector<CtaPhaseRecord>& ctas) {
  CtaPhaseSummary s;
  std::vector<double> pro, loop, epi, refill, skew;
  std::map<int, std::vector<const CtaPhaseRecord*>> by_sm;
  for (const CtaPhaseRecord& c : ctas) {
    pro.push_back(c.prologue_done - c.start);
    loop.push_back(c.loop_done - c.prologue_done);
    epi.push_back(c.end - c.loop_done);
    by_sm[c.sm].push_back(&c);
  }
  for (const auto& [sm, list] : by_sm) {
    for (const CtaPhaseRecord* c : list) {
      double last_end = -1, corun_start = -1;
      for (const CtaPhaseRecord* o : list) {
        if (o == c) continue;
        if (o->end <= c->start) last_end = std::max(last_end, o->end);
        if (o->start <= c->start && c->start < o->end)
          corun_start = std::max(corun_start, o->start);
      }
      if (last_end >= 0) refill.push_back(c->start - last_end);
      if (corun_start >= 0) skew.push_back(c->start - corun_start);
    }
  }
  s.prologue = median_of(pro);
  s.loop = median_of(loop);
  s.epilogue = median_of(epi);
  s.refill = median_of(refill);
  s.corun_skew = median_of(skew);
  return s;
}

}  // namespace stcsim
