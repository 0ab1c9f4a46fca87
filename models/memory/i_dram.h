// Kind "dram": device memory behind the L2.
//
// Contract: `channel_of` maps a byte address to a channel; `reserve` occupies that
// channel for `bytes` no earlier than `ready` (first come, first served) at the
// channel's sustained rate and returns the cycle the data is back at the L2
// (including the access latency). Rates are per core cycle.
#pragma once
#include <cstdint>

#include "models/common/cycles.h"

namespace stcsim {

class IDram {
 public:
  virtual ~IDram() = default;
  virtual int channel_of(std::uint64_t addr) const = 0;
  virtual Cycle reserve(int channel, Cycle ready, double bytes) = 0;
  virtual int channels() const = 0;
  virtual double peak_bytes_per_cycle() const = 0;       // datasheet rate, all channels
  virtual double sustained_bytes_per_cycle() const = 0;  // peak x efficiency
  virtual Cycle busy_cycles() const = 0;                 // summed over channels
  virtual Cycle idle_at() const = 0;  // every channel has served what it accepted
};

}  // namespace stcsim
