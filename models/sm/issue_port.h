// A sub-core scheduler's issue port for the instruction runs the model places on it (a
// mainloop's k-tile prelude, a rolled k-sub loop's top: KernelMapping::loop): a run of
// `cycles` takes the earliest idle stretch from its ready cycle on (reserve). Not first-
// come-first-served like Timeline: a k-tile is computed at its barrier, so a warp's later
// k-subs reserve the port ahead of time, and a co-resident CTA's warp that reaches its
// barrier before then must still find the port idle in between, as the hardware's
// scheduler would. The same bookkeeping as a sub-core's mma pipe (GapTimeline).
#pragma once
#include "models/common/gap_timeline.h"

namespace stcsim {

using IssuePort = GapTimeline;

}  // namespace stcsim
