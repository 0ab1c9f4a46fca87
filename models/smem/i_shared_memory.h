// Kind "smem": an SM's shared memory as the warps and the copy engine see it.
//
// Contract: `wavefronts` returns how many bank cycles one warp-wide access phase takes
// given the byte addresses its threads touch (1 when conflict-free); `read` occupies
// the port for that many cycles no earlier than `ready` (first come, first served)
// and returns the cycle the data reaches the registers; `write` occupies the port for
// `bytes` at full bandwidth (a warp's st.shared, the epilogue's staging); `store` is
// warps' conflict-free st.shared of `bytes_per_lane` a thread, `bytes` in all: each
// instruction takes the wavefronts its 32 lanes' bytes fill, at least one, so a store
// narrower than the port a warp (2-byte scalars: 64 B) costs a full cycle (conflict-free
// is the caller's claim: the harness's f32 staging stores, never timed, land on even banks
// only and would take two); `fill` occupies
// it for `bytes` an asynchronous copy (cp.async, TMA) writes as its data arrives from the
// L2, at the fill's own rate per port cycle. `matrix_read` serves the
// tensor cores' descriptor-based operand reads (wgmma): `bytes` of a swizzled tile,
// conflict-free, on the matrix read path, no earlier than `ready`, and says when the
// path starts and finishes serving them.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/cycles.h"

namespace stcsim {

class ISharedMemory {
 public:
  virtual ~ISharedMemory() = default;
  virtual int wavefronts(const std::vector<std::uint32_t>& addrs, int bytes_per_thread) const = 0;
  virtual Cycle read(Cycle ready, int wavefronts) = 0;
  virtual Cycle write(Cycle ready, double bytes) = 0;
  virtual Cycle store(Cycle ready, double bytes, int bytes_per_lane) = 0;
  virtual Cycle fill(Cycle ready, double bytes) = 0;
  struct Span {
    Cycle start, done;
  };
  virtual Span matrix_read(Cycle ready, double bytes) = 0;
  // Bytes per cycle of that path, and whether it is a path of its own (not the port).
  virtual double matrix_read_bytes_per_cycle() const = 0;
  virtual bool matrix_path_is_port() const = 0;
  virtual int bytes_per_cycle() const = 0;
  // A load's latency with the port free (what a dependent chain of loads pays per link).
  virtual int latency_cycles() const = 0;
  virtual Cycle busy_cycles() const = 0;
  virtual std::unique_ptr<ISharedMemory> clone_empty() const = 0;
};

}  // namespace stcsim
