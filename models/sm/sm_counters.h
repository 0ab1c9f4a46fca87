// What an SM counts while its CTAs run, read by the GPU between snapshots.
#pragma once
#include "models/sm/stall_counters.h"

namespace stcsim {

struct SmCounters {
  StallCounters stalls;
  double ctas = 0;
  // Kernels that fetch indices before their operands (block-sparse, CSR): cycles CTAs
  // waited on them (fetch + decode) before a stage load could issue, and the CTAs'
  // summed lifetimes.
  double index_wait_cycles = 0, cta_cycles = 0;
  // Gathers through the L1 (the CSR kernel): sectors looked up, and those that hit.
  double l1_sectors = 0, l1_hit_sectors = 0;
};

}  // namespace stcsim
