// Implementation "sectored_lru" of kind l2: set-associative, 128-byte lines of four
// 32-byte sectors (NVIDIA's L2 organisation), true LRU, write-back and
// write-allocate, lines spread over sets and slices by an address hash.
//
// Partitions (A100 and H100 split their L2 in two, joined by a crossbar): slice s
// belongs to partition s * partitions / slices, so the address hash spreads every
// tensor evenly over both. A line lives in its slice only (no copy in the requester's
// partition): pointer-chase microbenchmarks on A100 see two distinct steady hit
// latencies, near and far (REFERENCE: 202.8 vs 398-561 cycles), which a replicating
// L2 would not show after the first pass.
#pragma once
#include <algorithm>
#include <vector>

#include "models/common/timeline.h"
#include "models/memory/address_hash.h"
#include "models/memory/i_l2_cache.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params(); keys the config must
// give keep the A100's figure for specs built in code.
struct SectoredL2Spec {
  std::int64_t capacity_kib = 40960;
  int line_bytes = 128;
  int sector_bytes = 32;
  int ways = 16;
  int slices = 80;
  double slice_bytes_per_cycle = 64;
  int hit_latency = 200;
  int partitions = 1;
  int far_extra_latency = 0;            // cycles, round trip
  double crossbar_bytes_per_cycle = 0;  // each direction between two partitions; 0: unlimited
  static std::vector<ParamDecl> params();
  static SectoredL2Spec from(const ParamSet& p);
};

class SectoredL2 : public IL2Cache {
 public:
  explicit SectoredL2(const SectoredL2Spec& s);
  L2AccessResult access(std::uint64_t line_addr, std::uint8_t sectors, bool write) override;
  void access_lines(const L2Line* lines, std::size_t n, bool write, L2AccessResult* out) override;
  int slice_of(std::uint64_t line_addr) const override;
  Cycle reserve_slice(int slice, Cycle ready, double bytes) override;
  int slices() const override { return spec_.slices; }
  double capacity_bytes() const override { return double(spec_.capacity_kib) * 1024; }
  int line_bytes() const override { return spec_.line_bytes; }
  int sector_bytes() const override { return spec_.sector_bytes; }
  int hit_latency() const override { return spec_.hit_latency; }
  double bytes_per_cycle() const override { return spec_.slices * spec_.slice_bytes_per_cycle; }
  Cycle busy_cycles() const override;
  Cycle idle_at() const override;
  std::uint64_t set_of(std::uint64_t line_addr) const;  // exposed for tests
  void invalidate_all() override { std::fill(ways_, ways_ + sets_ * spec_.ways, Way{}); }
  int partitions() const override { return spec_.partitions; }
  int partition_of_slice(int slice) const override {
    return slice * spec_.partitions / spec_.slices;
  }
  int far_extra_latency() const override { return spec_.far_extra_latency; }
  Cycle reserve_crossbar(int from, int to, Cycle ready, double bytes) override;
  // Starts the LRU clock at `stamp` (tests: a run near the 32-bit wrap).
  void set_lru_clock(std::uint32_t stamp) { clock_ = stamp; }

 private:
  // 16 bytes a way, so a set's tags span few host cache lines: the LRU stamp is 32 bits,
  // renumbered before it wraps (renumber_lru).
  struct Way {
    std::uint64_t tag = ~std::uint64_t{0};
    std::uint32_t lru = 0;  // 0: never used since the last invalidation
    std::uint8_t valid = 0, dirty = 0;
  };
  // Rewrites every set's stamps as their ranks (1..ways, oldest first; unused ways stay
  // 0) and restarts the clock after them: every later victim choice is the one unbounded
  // stamps would make. A 4096-token llama2_7b run makes over 2^32 lookups.
  void renumber_lru();
  // Looks `line` up in the set starting at `set`: the body of access(). Writes `r` field
  // by field (a result returned by value and copied whole stalls the host's store
  // forwarding, once per line).
  void access_set(Way* set, std::uint64_t line, std::uint8_t sectors, bool write,
                  L2AccessResult& r);
  // Asks the host to bring a set's tags into its cache ahead of the lookup.
  void prefetch_set(const Way* set) const;
  SectoredL2Spec spec_;
  std::uint64_t sets_;
  // The tag array, each set starting on a 64-byte host cache line (a set of 16 ways is
  // then exactly four lines): storage_ holds it, ways_ points at its aligned start.
  std::vector<Way> storage_;
  Way* ways_ = nullptr;
  std::vector<Way*> batch_sets_;  // access_lines' scratch: each line's set
  int line_shift_;                // log2(line_bytes): a power of two
  Divider by_slices_;
  std::vector<Timeline> slice_ports_;
  std::vector<Timeline> crossbar_;  // [from * partitions + to]
  std::uint32_t clock_ = 0;
};

}  // namespace stcsim
