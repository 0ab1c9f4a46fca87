// Simulated time. The model advances in core-clock cycles; SystemC time carries them
// as 1 cycle == 1 ns of sc_time (a convention: seconds are cycles / core clock).
// Resources with fractional per-cycle rates (bytes/cycle) keep `double` cycle stamps;
// processes wake on whole cycles (rounded up).
#pragma once
#include <cmath>
#include <cstdint>
#include <systemc>

namespace stcsim {

using Cycle = double;

inline sc_core::sc_time cycles_to_time(double c) { return sc_core::sc_time(c, sc_core::SC_NS); }
// From sc_time's whole count of resolution ticks, so that a whole cycle is exact: through
// to_seconds() * 1e9 it was off in the last bits by an amount that grows with the time,
// and a GEMM's cycles (end - start) then depended on when it started.
inline Cycle now_cycles() {
  static const double ticks_per_cycle = double(sc_core::sc_time(1, sc_core::SC_NS).value());
  return double(sc_core::sc_time_stamp().value()) / ticks_per_cycle;
}
// Cycle stamps are sums of fractional durations; treat stamps within 1e-6 of a whole
// cycle as that cycle, consistently in `reached` and `ceil_cycle`.
inline constexpr double kCycleEpsilon = 1e-6;
inline Cycle ceil_cycle(Cycle c) { return std::ceil(c - kCycleEpsilon); }
inline bool reached(Cycle t, Cycle now) { return t <= now + kCycleEpsilon; }

// Wait until cycle `c` (rounded up to a whole cycle); returns at once if it has passed.
inline void wait_until(Cycle c) {
  const Cycle t = ceil_cycle(c) - now_cycles();
  if (t > 0) sc_core::wait(cycles_to_time(t));
}

}  // namespace stcsim
