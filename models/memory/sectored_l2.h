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
#include <cstdint>
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
  void invalidate_all() override { std::fill(ways_, ways_ + sets_ * spec_.ways, kEmpty); }
  int partitions() const override { return spec_.partitions; }
  int partition_of_slice(int slice) const override {
    return slice * spec_.partitions / spec_.slices;
  }
  int far_extra_latency() const override { return spec_.far_extra_latency; }
  Cycle reserve_crossbar(int from, int to, Cycle ready, double bytes) override;

 private:
  // A set keeps its ways in recency order, most recently used first, and its empty ways
  // after the used ones: a hit moves its way to the front, a miss fills the first empty
  // way or else evicts the last (the least recently used) and enters at the front. Which
  // physical way a line sits in never shows in a result, so this is true LRU with no
  // stamps, and hot lines are found first. A way is one 64-bit word: the line number
  // (its address over the line size) in the low 48 bits, the valid sectors in the next
  // 8, the dirty sectors in the top 8; a set of 16 ways spans two host cache lines.
  using Way = std::uint64_t;
  static constexpr int kTagBits = 48;
  static constexpr Way kTagMask = (Way{1} << kTagBits) - 1;
  static constexpr Way kEmpty = kTagMask;  // no line: the all-ones line number, no sectors
  // The set of line number `line` among `sets` (set_of, and the lookups' own copy of it).
  static std::uint64_t set_index(std::uint64_t line, std::uint64_t sets) {
    return reduce_range(mix_address(line ^ 0x5bd1e995u), sets);
  }
  static std::uint8_t valid_of(Way w) { return std::uint8_t(w >> kTagBits); }
  static std::uint8_t dirty_of(Way w) { return std::uint8_t(w >> (kTagBits + 8)); }
  static Way make_way(std::uint64_t line, unsigned valid, unsigned dirty) {
    return line | Way(valid & 0xff) << kTagBits | Way(dirty & 0xff) << (kTagBits + 8);
  }
  // access_lines' lookups, in order, each set prefetched a few lines ahead; reads or
  // writes fixed at compile time (an L1's gathers are all reads: no test of it a line).
  template <int kWays, bool kWrite>
  void lookup_batch(const L2Line* lines, std::size_t n, L2AccessResult* out);
  // Looks `line` up in the set starting at `set`, a set of kWays ways (0: spec_.ways,
  // read at run time). Writes `r` field by field (a result returned by value and copied
  // whole stalls the host's store forwarding, once per line).
  // Inlined into the batch loop (a call per lookup saves and restores five registers).
  template <int kWays, bool kWrite>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  inline void
  access_set_n(Way* set, std::uint64_t line, std::uint8_t sectors, L2AccessResult& r);
  // access_set_n for a set of exactly four ways (the L1s'), with no branch at all
  // (whether a gathered line hits is data the host cannot predict): the hit or else the
  // last way is found by a mask, and the set shifted from there alike in both cases.
  template <bool kWrite>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  inline void
  access_set_4(Way* set, std::uint64_t line, std::uint8_t sectors, L2AccessResult& r);
  // The line number of `line_addr`, checked to fit a way's 48 bits.
  std::uint64_t line_number(std::uint64_t line_addr) const {
    const std::uint64_t line = line_addr >> line_shift_;
    if (__builtin_expect(line >= kTagMask, 0)) line_beyond_tags(line_addr);
    return line;
  }
  [[noreturn]] static void line_beyond_tags(std::uint64_t line_addr);  // throws
  // Asks the host to bring a set's tags into its cache ahead of the lookup (kWays: as in
  // access_set_n).
  template <int kWays>
  void prefetch_set(const Way* set) const;
  SectoredL2Spec spec_;
  std::uint64_t sets_;
  // The tag array, each set starting on a 64-byte host cache line (a set of 16 ways is
  // then exactly two lines): storage_ holds it, ways_ points at its aligned start.
  std::vector<Way> storage_;
  Way* ways_ = nullptr;
  int line_shift_;  // log2(line_bytes): a power of two
  Divider by_slices_;
  std::vector<Timeline> slice_ports_;
  std::vector<Timeline> crossbar_;  // [from * partitions + to]
};

}  // namespace stcsim
