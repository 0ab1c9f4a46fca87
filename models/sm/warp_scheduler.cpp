#include "models/sm/warp_scheduler.h"

#include <algorithm>

namespace stcsim {

void issue_ksub(ITensorCore& pipe, const MmaKind& kind, const std::vector<WarpState*>& warps, int n,
                Cycle not_before, StallCounters& stalls) {
  const int lat = pipe.latency(kind);
  const int nw = int(warps.size());
  thread_local std::vector<int> next;  // next instruction per warp
  next.assign(nw, 0);
  for (int issued = 0; issued < nw * n; ++issued) {
    int pick = -1;
    Cycle best = 0;
    for (int w = 0; w < nw; ++w) {
      if (next[w] >= n) continue;
      const Cycle r = std::max(warps[w]->frag_ready, warps[w]->acc_ready[next[w]]);
      if (pick < 0 || r < best) {
        pick = w;
        best = r;
      }
    }
    WarpState& ws = *warps[pick];
    const int i = next[pick]++;
    const Cycle free_before = std::max(pipe.free_at(), not_before);
    const Cycle t = pipe.issue(best, kind);
    if (t > free_before) {
      const bool dep = ws.acc_ready[i] > ws.frag_ready;
      stalls.add(dep ? StallCause::Dependency : ws.frag_cause, t - free_before);
    }
    if (i == 0) ws.first_issue = t;
    ws.last_issue = t;
    ws.acc_ready[i] = t + lat;
    ws.last_done = std::max(ws.last_done, t + lat);
  }
}

}  // namespace stcsim
