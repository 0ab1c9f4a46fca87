// Global loads through the L1 (LDG): the sectors of [a0, a1) the L1 holds are hits;
// only the ones it misses go to the L2 in `r`. Counts both on the SM's counters. With
// no L1 modelled, the whole range goes to the L2. Used by the CUDA-core kernels (CSR
// SpMM's activation gathers, the depthwise convolution's input rows).
#pragma once
#include <cstdint>

#include "models/memory/memory_system.h"
#include "models/sm/sm_context.h"

namespace stcsim {

inline void load_through_l1(SmContext& sm, std::uint64_t a0, std::uint64_t a1, MemRequest& r) {
  if (!sm.l1) {
    r.runs.push_back(RowRun{a0, std::uint32_t(a1 - a0), 1, 0});
    return;
  }
  for (std::uint64_t line = a0 / 128 * 128; line < a1; line += 128) {
    std::uint8_t want = 0;
    for (int sct = 0; sct < 4; ++sct) {
      const std::uint64_t lo = line + std::uint64_t(sct) * 32;
      if (lo + 32 > a0 && lo < a1) want |= std::uint8_t(1u << sct);
    }
    const std::uint8_t miss = sm.l1->access(line, want, false).miss_sectors;
    for (int sct = 0; sct < 4; ++sct) {
      if (!(want >> sct & 1)) continue;
      sm.counters.l1_sectors += 1;
      if (miss >> sct & 1)
        r.runs.push_back(RowRun{line + std::uint64_t(sct) * 32, 32, 1, 0});
      else
        sm.counters.l1_hit_sectors += 1;
    }
  }
}

}  // namespace stcsim
