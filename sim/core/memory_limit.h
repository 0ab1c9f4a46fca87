// The process-wide memory budget (`stcsim --max-memory`): every reader and planner that
// would allocate in proportion to its input (a file's bytes, a GEMM's CTAs, a sweep's
// points) checks its estimate against it first and refuses with an InputError that
// states the estimate, instead of growing until the allocator fails mid-run.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim {

// Documented default (README, `stcsim --help`): 8 GiB, below the memory of the CI machines,
// so an over-sized input is refused rather than swapped or killed.
inline constexpr std::uint64_t kDefaultMaxMemoryBytes = std::uint64_t(8) << 30;

// One value for the process, set once by the command line before any work; a plain
// function-local static because nothing runs concurrently with the option parsing.
inline std::uint64_t& max_memory_bytes() {
  static std::uint64_t limit = kDefaultMaxMemoryBytes;
  return limit;
}

// "1.5 GiB", "812 bytes": for the estimates in refusals.
inline std::string format_bytes(std::uint64_t b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// Throws unless `estimate` fits the budget; `what` names the input and how the estimate
// was made ("--gemm 10000000x10000000x10000000: 1.2e12 CTAs of ~2 KiB each").
inline void admit_memory(std::uint64_t estimate, const std::string& what) {
  if (estimate > max_memory_bytes())
    throw InputError(what + " needs an estimated " + format_bytes(estimate) +
                     ", more than the memory limit " + format_bytes(max_memory_bytes()) +
                     " (raise it with --max-memory, e.g. --max-memory 64G)");
}

}  // namespace stcsim
