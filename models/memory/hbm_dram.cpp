#include "models/memory/hbm_dram.h"

#include <algorithm>

#include "models/memory/address_hash.h"
#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> HbmDramSpec::params() {
  const HbmDramSpec d;  // defaults: the struct's initialisers (hbm_dram.h)
  return {
      float_param("bandwidth_gbps", "GB/s", std::nullopt, 1, 1e6,
                  "datasheet peak bandwidth (1 GB = 1e9 bytes)"),
      int_param("channels", "channels", std::nullopt, 1, 1024, "independent channels"),
      float_param("latency_ns", "ns", d.latency_ns, 0, 1e5,
                  "added latency of a miss beyond the L2 hit latency"),
      float_param("efficiency", "-", d.efficiency, 0.05, 1.0,
                  "sustained fraction of peak (refresh, turnaround, row misses)"),
      int_param("interleave_bytes", "bytes", d.interleave_bytes, 32, 1 << 20,
                "contiguous bytes mapped to one channel before the hash moves on"),
  };
}

HbmDramSpec HbmDramSpec::from(const ParamSet& p) {
  return {p.get_float("bandwidth_gbps"), int(p.get_int("channels")), p.get_float("latency_ns"),
          p.get_float("efficiency"), int(p.get_int("interleave_bytes"))};
}

HbmDram::HbmDram(const HbmDramSpec& s, double core_clock_mhz)
    : spec_(s),
      ports_(s.channels),
      by_interleave_(std::uint64_t(s.interleave_bytes)),
      by_channels_(std::uint64_t(s.channels)) {
  peak_bpc_ = s.bandwidth_gbps * 1e9 / (core_clock_mhz * 1e6);
  channel_bpc_ = peak_bpc_ * s.efficiency / s.channels;
  latency_cycles_ = s.latency_ns * core_clock_mhz * 1e-3;
}

int HbmDram::channel_of(std::uint64_t addr) const {
  return int(interleave(by_interleave_.quotient(addr), by_channels_));
}

Cycle HbmDram::reserve(int channel, Cycle ready, double bytes) {
  const double d = bytes / channel_bpc_;
  return ports_[channel].reserve(ready, d) + d + latency_cycles_;
}

Cycle HbmDram::busy_cycles() const {
  Cycle b = 0;
  for (const auto& t : ports_) b += t.busy_cycles();
  return b;
}

Cycle HbmDram::idle_at() const {
  Cycle t = 0;
  for (const auto& p : ports_) t = std::max(t, p.free_at());
  return t;
}

static Registrar<IDram> reg_hbm{
    ComponentInfo{"dram", "hbm",
                  "maps addresses to channels and serves bytes per channel first come first "
                  "served at a sustained rate plus latency",
                  "channel-interleaved HBM with a sustained-efficiency factor",
                  HbmDramSpec::params(), true},
    [](const ParamSet& p, const BuildContext& ctx) {
      return std::make_unique<HbmDram>(HbmDramSpec::from(p), ctx.core_clock_mhz);
    }};

}  // namespace stcsim
