// Global loads through the L1 (LDG): the sectors of each span [a0, a1) the L1 holds are
// hits; only the ones it misses go to the L2 in `r` (as `r.lines`). Counts both on the SM's
// counters. With no L1 modelled, the whole spans go to the L2. Used by the CUDA-core kernels (CSR
// SpMM's activation gathers, the depthwise convolution's input rows).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"
#include "models/sm/sm_context.h"

namespace stcsim {

using Span = std::pair<std::uint64_t, std::uint64_t>;  // [first byte, end)

// The spans in order, their L1 lookups in one batch (SectoredL2::access_lines: the same
// lookups in the same order as one at a time).
inline void load_spans_through_l1(SmContext& sm, const Span* spans, std::size_t n, MemRequest& r) {
  if (!sm.l1) {
    for (std::size_t i = 0; i < n; ++i)
      r.add_run(spans[i].first, std::uint32_t(spans[i].second - spans[i].first));
    return;
  }
  thread_local std::vector<L2Line> lines;
  thread_local std::vector<L2AccessResult> results;
  constexpr std::uint64_t kLine = MemRequest::kLineBytes, kSector = MemRequest::kSectorBytes;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (spans[i].second > spans[i].first)
      count += std::size_t((spans[i].second - 1) / kLine - spans[i].first / kLine + 1);
  if (lines.size() < count) {
    lines.resize(count);
    results.resize(count);
  }
  // Plain pointers: a byte store (a sector mask) may alias anything, so through the
  // thread_local vectors the host would reload their addresses after every line. Fields
  // written in place (an entry built aside and copied in stalls the host's store
  // forwarding).
  L2Line* const ls = lines.data();
  const L2AccessResult* const rs = results.data();
  constexpr unsigned kSectors = unsigned(kLine / kSector), kWhole = (1u << kSectors) - 1;
  std::size_t k = 0;
  // The sectors a span overlaps are consecutive sector numbers: counted at once.
  std::int64_t wanted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [a0, a1] = spans[i];
    if (a1 <= a0) continue;
    wanted += std::int64_t((a1 - 1) / kSector - a0 / kSector + 1);
    // Whole lines, then the first one trimmed from sector (a0 within its line) on and
    // the last one to the sector holding a1 - 1.
    const std::size_t first = k;
    for (std::uint64_t line = a0 / kLine * kLine; line < a1; line += kLine) {
      ls[k].addr = line;
      ls[k].sectors = std::uint8_t(kWhole);
      ++k;
    }
    ls[first].sectors = std::uint8_t(ls[first].sectors & ~((1u << (a0 % kLine / kSector)) - 1));
    ls[k - 1].sectors =
        std::uint8_t(ls[k - 1].sectors & ((2u << ((a1 - 1) % kLine / kSector)) - 1));
  }
  sm.l1->access_lines(ls, k, false, results.data());
  // The missed sectors of each line go to the L2 as that line (what the L1 sends as one
  // request): one L2 lookup a line with all its missed sectors. Compacted in place, then
  // appended (the request's storage outlives its CTA: RequestPool). A lookup's missed
  // sectors are among those it asked for.
  std::size_t missed = 0;
  std::int64_t missed_sectors = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint64_t addr = ls[i].addr;
    const std::uint8_t miss = rs[i].miss_sectors;
    missed_sectors += sector_count(miss);
    // Written always, kept when something missed (whether a line hits is data the host
    // cannot predict).
    ls[missed].addr = addr;
    ls[missed].sectors = miss;
    missed += miss != 0 ? 1 : 0;
  }
  r.lines.insert(r.lines.end(), ls, ls + missed);
  // Whole sector counts: the same sums as counting one at a time.
  sm.counters.l1_sectors += double(wanted);
  sm.counters.l1_hit_sectors += double(wanted - missed_sectors);
}

inline void load_through_l1(SmContext& sm, std::uint64_t a0, std::uint64_t a1, MemRequest& r) {
  const Span one{a0, a1};
  load_spans_through_l1(sm, &one, 1, r);
}

}  // namespace stcsim
