// Kind "l2": the GPU's last-level cache, shared by all SMs, split into slices.
//
// Contract: `access` looks up one line with the sectors a request touches, updates
// replacement state, allocates on a miss (reads and writes alike; writes mark sectors
// dirty) and reports which sectors missed and which dirty sectors were evicted.
// `reserve_slice` occupies a slice's data path for `bytes` no earlier than `ready`
// (first come, first served) and returns the cycle it is done.
//
// Partitions: an L2 may be split into `partitions()` partitions (A100, H100: two), each
// holding its own share of the slices and attached to its own share of the SMs. An SM's
// access to a slice of the other partition crosses the inter-partition crossbar: it pays
// `far_extra_latency()` more cycles (round trip) and, when the crossbar has a finite
// width, `reserve_crossbar` serialises the bytes on the link between the two.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "models/common/cycles.h"

namespace stcsim {

// One line of a request: its byte address and the sectors it touches (bit i: sector i).
struct L2Line {
  std::uint64_t addr = 0;
  std::uint8_t sectors = 0;
};

// Set bits of a sector mask (at most 8 sectors a line), from a table: a load, where the
// bit arithmetic that __builtin_popcount becomes on a baseline x86-64 build is a dozen
// instructions, paid for every line looked up.
struct SectorCountTable {
  std::uint8_t count[256];
  constexpr SectorCountTable() : count{} {
    for (int m = 0; m < 256; ++m)
      for (int b = 0; b < 8; ++b) count[m] = std::uint8_t(count[m] + ((m >> b) & 1));
  }
};
inline constexpr SectorCountTable kSectorCounts{};
inline int sector_count(std::uint8_t m) { return kSectorCounts.count[m]; }

struct L2AccessResult {
  std::uint8_t miss_sectors = 0;        // bit i: sector i was not present
  std::uint8_t evicted_dirty = 0;       // dirty sectors of the victim line
  std::uint64_t evicted_line_addr = 0;  // byte address of the victim line
  int slice = 0;                        // the line's slice (slice_of); set by access_lines
};

class IL2Cache {
 public:
  virtual ~IL2Cache() = default;
  virtual L2AccessResult access(std::uint64_t line_addr, std::uint8_t sectors, bool write) = 0;
  // `access` for each of `n` lines in order, results (with each line's slice) into `out`:
  // the same outcome as n calls, which an implementation may reach faster (a request's
  // lines are known at once, so their tag lookups can be overlapped on the host).
  virtual void access_lines(const L2Line* lines, std::size_t n, bool write, L2AccessResult* out) {
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = access(lines[i].addr, lines[i].sectors, write);
      out[i].slice = slice_of(lines[i].addr);
    }
  }
  virtual int slice_of(std::uint64_t line_addr) const = 0;
  virtual Cycle reserve_slice(int slice, Cycle ready, double bytes) = 0;
  virtual int slices() const = 0;
  virtual double capacity_bytes() const = 0;
  virtual int line_bytes() const = 0;
  virtual int sector_bytes() const = 0;
  virtual int hit_latency() const = 0;
  virtual double bytes_per_cycle() const = 0;  // all slices together
  virtual Cycle busy_cycles() const = 0;       // summed over slices
  virtual void invalidate_all() = 0;           // drop every line (dirty data is discarded)
  // The cycle by which every slice port and crossbar link has served what it accepted.
  virtual Cycle idle_at() const = 0;
  virtual int partitions() const = 0;  // 1: one unified cache
  virtual int partition_of_slice(int slice) const = 0;
  virtual int far_extra_latency() const = 0;  // cycles added to a far access, round trip
  // Occupy the crossbar from partition `from` to partition `to` with `bytes` no earlier
  // than `ready`; returns when the last byte is across (`ready` when it is unlimited).
  virtual Cycle reserve_crossbar(int from, int to, Cycle ready, double bytes) = 0;
};

}  // namespace stcsim
