// Implementation "banked" of kind smem: `banks` banks of `bank_bytes` each; one
// wavefront serves at most one distinct word per bank, so a phase whose addresses
// put k distinct words in one bank takes k cycles. The tensor cores' operand reads
// (wgmma) go through the same port unless `matrix_read_bytes_per_cycle` gives them a
// path of their own. Asynchronous-copy fills write `fill_write_bytes_per_cycle` per port
// cycle: their data arrives from the L2 in pieces, each written in a cycle of its own,
// so a fill narrower than the port costs port cycles beyond its bytes.
#pragma once
#include <algorithm>
#include <cmath>

#include "models/common/timeline.h"
#include "models/smem/i_shared_memory.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params().
struct BankedSmemSpec {
  int banks = 32;
  int bank_bytes = 4;
  int latency = 30;
  double matrix_read_bytes_per_cycle = 0;  // 0: the port (banks x bank_bytes)
  double fill_write_bytes_per_cycle = 0;   // 0: the port (banks x bank_bytes)
  static std::vector<ParamDecl> params();
  static BankedSmemSpec from(const ParamSet& p);
};

class BankedSmem : public ISharedMemory {
 public:
  explicit BankedSmem(const BankedSmemSpec& s) : spec_(s) {}
  int wavefronts(const std::vector<std::uint32_t>& addrs, int bytes_per_thread) const override;
  int latency_cycles() const override { return spec_.latency; }
  Cycle read(Cycle ready, int wavefronts) override {
    return port_.reserve(ready, wavefronts) + wavefronts + spec_.latency;
  }
  Cycle write(Cycle ready, double bytes) override {
    const double d = bytes / bytes_per_cycle();
    return port_.reserve(ready, d) + d;
  }
  Cycle store(Cycle ready, double bytes, int bytes_per_lane) override {
    const double warp_bytes = 32.0 * bytes_per_lane;
    const double per_instruction = std::max(1.0, std::ceil(warp_bytes / bytes_per_cycle()));
    const double d = bytes / warp_bytes * per_instruction;
    return port_.reserve(ready, d) + d;
  }
  Cycle fill(Cycle ready, double bytes) override {
    const double d = bytes / fill_bytes_per_cycle();
    return port_.reserve(ready, d) + d;
  }
  double fill_bytes_per_cycle() const {
    return spec_.fill_write_bytes_per_cycle > 0 ? spec_.fill_write_bytes_per_cycle
                                                : bytes_per_cycle();
  }
  Span matrix_read(Cycle ready, double bytes) override {
    const bool own = spec_.matrix_read_bytes_per_cycle > 0;
    const double d = bytes / (own ? spec_.matrix_read_bytes_per_cycle : bytes_per_cycle());
    const Cycle start = (own ? matrix_path_ : port_).reserve(ready, d);
    return {start, start + d};
  }
  double matrix_read_bytes_per_cycle() const override {
    return spec_.matrix_read_bytes_per_cycle > 0 ? spec_.matrix_read_bytes_per_cycle
                                                 : bytes_per_cycle();
  }
  bool matrix_path_is_port() const override { return spec_.matrix_read_bytes_per_cycle <= 0; }
  int bytes_per_cycle() const override { return spec_.banks * spec_.bank_bytes; }
  // The port's busy cycles (a separate matrix path is not the port).
  Cycle busy_cycles() const override { return port_.busy_cycles(); }
  std::unique_ptr<ISharedMemory> clone_empty() const override {
    return std::make_unique<BankedSmem>(spec_);
  }

 private:
  BankedSmemSpec spec_;
  Timeline port_;
  Timeline matrix_path_;
};

}  // namespace stcsim
