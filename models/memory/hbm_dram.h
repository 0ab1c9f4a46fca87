// Implementation "hbm" of kind dram: `channels` independent channels, addresses
// interleaved over them every `interleave_bytes` through the address hash, each
// channel streaming at bandwidth/channels x efficiency (refresh, read/write turnaround
// and row misses are folded into `efficiency`), plus a fixed access latency.
#pragma once
#include <vector>

#include "models/common/timeline.h"
#include "models/memory/address_hash.h"
#include "models/memory/i_dram.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params(); keys the config must
// give keep the A100's figure for specs built in code.
struct HbmDramSpec {
  double bandwidth_gbps = 1555;
  int channels = 40;
  double latency_ns = 180;
  double efficiency = 0.92;
  int interleave_bytes = 256;
  static std::vector<ParamDecl> params();
  static HbmDramSpec from(const ParamSet& p);
};

class HbmDram : public IDram {
 public:
  HbmDram(const HbmDramSpec& s, double core_clock_mhz);
  int channel_of(std::uint64_t addr) const override;
  Cycle reserve(int channel, Cycle ready, double bytes) override;
  int channels() const override { return spec_.channels; }
  double peak_bytes_per_cycle() const override { return peak_bpc_; }
  double sustained_bytes_per_cycle() const override { return peak_bpc_ * spec_.efficiency; }
  Cycle busy_cycles() const override;
  Cycle idle_at() const override;

 private:
  HbmDramSpec spec_;
  double peak_bpc_;     // bytes per core cycle, all channels
  double channel_bpc_;  // sustained bytes per core cycle, one channel
  double latency_cycles_;
  std::vector<Timeline> ports_;
  Divider by_interleave_, by_channels_;  // address / interleave_bytes, unit / channels
};

}  // namespace stcsim
