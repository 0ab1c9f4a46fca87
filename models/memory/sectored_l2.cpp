#include "models/memory/sectored_l2.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/memory/address_hash.h"
#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> SectoredL2Spec::params() {
  const SectoredL2Spec d;  // defaults: the struct's initialisers (sectored_l2.h)
  return {
      int_param("capacity_kib", "KiB", std::nullopt, 64, 1 << 24, "total L2 capacity"),
      int_param("line_bytes", "bytes", d.line_bytes, 32, 1024, "cache line (tag) size"),
      int_param("sector_bytes", "bytes", d.sector_bytes, 8, 1024,
                "sector size: the unit fetched from DRAM"),
      int_param("ways", "ways", d.ways, 1, 64, "associativity"),
      int_param("slices", "slices", std::nullopt, 1, 1024, "number of L2 slices (banks)"),
      float_param("slice_bytes_per_cycle", "bytes/cycle", d.slice_bytes_per_cycle, 1, 4096,
                  "data bandwidth of one slice per core cycle"),
      int_param("hit_latency_cycles", "cycles", d.hit_latency, 1, 10000,
                "load-to-use latency of an L2 hit seen by an SM (in its own partition)"),
      int_param("partitions", "partitions", d.partitions, 1, 16,
                "L2 partitions, each with an equal share of the slices and of the SMs"),
      int_param("far_extra_latency_cycles", "cycles", d.far_extra_latency, 0, 10000,
                "extra load-to-use latency when the line's slice is in another partition "
                "than the SM's (the inter-partition crossbar, both ways)"),
      float_param("crossbar_bytes_per_cycle", "bytes/cycle", d.crossbar_bytes_per_cycle, 0, 1e6,
                  "bandwidth of the crossbar from one partition to another, each direction "
                  "(0: unlimited)"),
  };
}

SectoredL2Spec SectoredL2Spec::from(const ParamSet& p) {
  SectoredL2Spec s;
  s.capacity_kib = p.get_int("capacity_kib");
  s.line_bytes = int(p.get_int("line_bytes"));
  s.sector_bytes = int(p.get_int("sector_bytes"));
  s.ways = int(p.get_int("ways"));
  s.slices = int(p.get_int("slices"));
  s.slice_bytes_per_cycle = p.get_float("slice_bytes_per_cycle");
  s.hit_latency = int(p.get_int("hit_latency_cycles"));
  s.partitions = int(p.get_int("partitions"));
  s.far_extra_latency = int(p.get_int("far_extra_latency_cycles"));
  s.crossbar_bytes_per_cycle = p.get_float("crossbar_bytes_per_cycle");
  if (s.slices % s.partitions != 0)
    throw InputError("l2.partitions: " + std::to_string(s.partitions) +
                     " does not divide l2.slices (" + std::to_string(s.slices) +
                     "): each partition holds an equal share of the slices");
  if (s.line_bytes % s.sector_bytes != 0 || s.line_bytes / s.sector_bytes > 8)
    throw InputError("l2: line_bytes must be 1..8 sectors of sector_bytes");
  return s;
}

SectoredL2::SectoredL2(const SectoredL2Spec& s)
    : spec_(s),
      line_shift_(__builtin_ctz(unsigned(s.line_bytes))),
      by_slices_(std::uint64_t(s.slices)),
      slice_ports_(s.slices),
      crossbar_(std::size_t(s.partitions * s.partitions)) {
  // Lines and sectors are address bit fields, as in every cache (checked here, where
  // specs from a config and specs built in code both pass).
  const auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (!pow2(s.line_bytes) || !pow2(s.sector_bytes))
    throw InputError("l2: line_bytes (" + std::to_string(s.line_bytes) + ") and sector_bytes (" +
                     std::to_string(s.sector_bytes) + ") must be powers of two");
  sets_ =
      std::max<std::uint64_t>(1, std::uint64_t(s.capacity_kib) * 1024 / (s.line_bytes * s.ways));
  static_assert(64 % sizeof(Way) == 0, "a host cache line holds whole ways");
  constexpr std::size_t per_line = 64 / sizeof(Way);
  storage_.assign(sets_ * std::uint64_t(s.ways) + per_line, kEmpty);
  const auto at = reinterpret_cast<std::uintptr_t>(storage_.data());
  ways_ = storage_.data() + ((64 - at % 64) % 64) / sizeof(Way);
}

int SectoredL2::slice_of(std::uint64_t line_addr) const {
  return int(interleave(line_addr >> line_shift_, by_slices_));
}

std::uint64_t SectoredL2::set_of(std::uint64_t line_addr) const {
  return set_index(line_addr >> line_shift_, sets_);
}

void SectoredL2::line_beyond_tags(std::uint64_t line_addr) {
  throw std::logic_error("l2: address " + std::to_string(line_addr) +
                         " beyond the tag store's 48-bit line numbers");
}

L2AccessResult SectoredL2::access(std::uint64_t line_addr, std::uint8_t sectors, bool write) {
  // A batch of one: the same lookup code as every batch.
  L2AccessResult r;
  const L2Line one{line_addr, sectors};
  access_lines(&one, 1, write, &r);
  return r;
}

namespace {
// Ways [0, n) of a set one place back, to [1, n + 1): a handful of words, copied in place
// (a library memmove call costs more than the copy; GCC would turn the loop into one).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
inline void
move_back(std::uint64_t* set, int n) {
  for (int j = n; j > 0; --j) set[j] = set[j - 1];
}

// The first ways of a set, looked at together. Hits land there most of the time (the
// set is in recency order), but at which of them is data the host cannot predict: a scan
// that stops at the hit mispredicts its exit about every other lookup, so the head is
// compared, and shifted, without branches.
constexpr int kHead = 4;

// Ways [0, n) one place back for n < kHead, by masks (GCC turns plain selects here into
// branches on n, the very mispredictions this avoids).
inline void move_back_head(std::uint64_t* set, int n) {
  const std::uint64_t w0 = set[0], w1 = set[1], w2 = set[2], w3 = set[3];
  const auto all = [](bool b) { return std::uint64_t{0} - std::uint64_t(b); };
  const std::uint64_t m1 = all(n >= 1), m2 = all(n >= 2), m3 = all(n >= 3);
  set[1] = (w0 & m1) | (w1 & ~m1);
  set[2] = (w1 & m2) | (w2 & ~m2);
  set[3] = (w2 & m3) | (w3 & ~m3);
}

// Ways [0, n) of a set of `ways` one place back: by masks within the head, else copied.
inline void shift_back(std::uint64_t* set, int n, int ways) {
  if (ways >= kHead && n < kHead)
    move_back_head(set, n);
  else
    move_back(set, n);
}
}  // namespace

template <int kWays, bool kWrite>
inline void SectoredL2::access_set_n(Way* set, std::uint64_t line, std::uint8_t sectors,
                                     L2AccessResult& r) {
  r.evicted_dirty = 0;
  r.evicted_line_addr = 0;
  const int ways = kWays > 0 ? kWays : spec_.ways;
  int w = ways;  // the hit's way, or `ways` for a miss
  int first_empty = ways;
  int from = 0;  // where the way-by-way scan starts
  if (ways >= kHead) {
    unsigned hit = 0, empty = 0;
    for (int j = 0; j < kHead; ++j) {
      hit |= unsigned((set[j] & kTagMask) == line) << j;
      empty |= unsigned(set[j] == kEmpty) << j;
    }
    // A line sits in one way at most; empty ways come after the used ones.
    if (hit)
      w = __builtin_ctz(hit);
    else if (empty)
      first_empty = __builtin_ctz(empty);
    else
      from = kHead;
  }
  if (w == ways && first_empty == ways) {
    for (int j = from; j < ways; ++j) {
      const Way way = set[j];
      if ((way & kTagMask) == line) {
        w = j;
        break;
      }
      if (way == kEmpty) {  // the used ways end here: a miss with a free way
        first_empty = j;
        break;
      }
    }
  }
  if (w < ways) {
    // A hit: its sectors, then to the front (the ways before it move back one).
    const Way way = set[w];
    const unsigned valid = valid_of(way), dirty = dirty_of(way);
    r.miss_sectors = kWrite ? 0 : (sectors & ~valid);
    const Way entry = make_way(line, valid | sectors, kWrite ? dirty | sectors : dirty);
    shift_back(set, w, ways);
    set[0] = entry;
    return;
  }
  // A miss: into the first empty way, else over the least recently used (the last).
  int v = first_empty;
  if (v == ways) {
    v = ways - 1;
    const Way victim = set[v];
    if (dirty_of(victim)) {
      r.evicted_dirty = dirty_of(victim);
      r.evicted_line_addr = (victim & kTagMask) * std::uint64_t(spec_.line_bytes);
    }
  }
  // Full-sector writes need no fill from DRAM; reads fetch the sectors they touch.
  r.miss_sectors = kWrite ? 0 : sectors;
  shift_back(set, v, ways);
  set[0] = make_way(line, sectors, kWrite ? sectors : 0);
}

template <bool kWrite>
inline void SectoredL2::access_set_4(Way* set, std::uint64_t line, std::uint8_t sectors,
                                     L2AccessResult& r) {
  const Way w0 = set[0], w1 = set[1], w2 = set[2], w3 = set[3];
  // A way holds the line when their low 48 bits agree (shifted out: the sector bits).
  constexpr int kState = 64 - kTagBits;
  const unsigned hit =
      unsigned(((w0 ^ line) << kState) == 0) | unsigned(((w1 ^ line) << kState) == 0) << 1 |
      unsigned(((w2 ^ line) << kState) == 0) << 2 | unsigned(((w3 ^ line) << kState) == 0) << 3;
  // The way the ones before it shift back into: the hit, else the last. A miss over the
  // last way is the same as one into the first empty way: empty ways are the last ones
  // and alike, so shifting them back one changes nothing, and an empty way evicts nothing.
  const int p = __builtin_ctz(hit | 8u);
  const Way old = set[p];
  // Its sectors are the line's for a hit; for a miss its dirty sectors are the eviction's.
  const unsigned keep = 0u - unsigned(hit != 0);
  const unsigned valid = valid_of(old) & keep, dirty = dirty_of(old) & keep;
  const unsigned evicted = dirty_of(old) & ~keep;
  const Way evicted_addr = ((old & kTagMask) << line_shift_) & (Way{0} - Way(evicted != 0));
  const auto all = [](bool b) { return Way{0} - Way(b); };
  const Way m1 = all(p >= 1), m2 = all(p >= 2), m3 = all(p >= 3);
  set[0] = make_way(line, valid | sectors, kWrite ? dirty | sectors : dirty);
  set[1] = (w0 & m1) | (w1 & ~m1);
  set[2] = (w1 & m2) | (w2 & ~m2);
  set[3] = (w2 & m3) | (w3 & ~m3);
  // The result last: its byte stores may alias anything the host holds in registers.
  r.evicted_line_addr = evicted_addr;
  r.evicted_dirty = std::uint8_t(evicted);
  // Reads fetch the sectors they touch that are not there; full-sector writes none.
  r.miss_sectors = kWrite ? 0 : std::uint8_t(sectors & ~valid);
}

template <int kWays>
void SectoredL2::prefetch_set(const Way* set) const {
  const char* p = reinterpret_cast<const char*>(set);
  const std::size_t bytes = std::size_t(kWays > 0 ? kWays : spec_.ways) * sizeof(Way);
  for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off, 1);
}

void SectoredL2::access_lines(const L2Line* lines, std::size_t n, bool write, L2AccessResult* out) {
  // Each line's slice first, in a loop of its own (pure arithmetic the host overlaps line
  // with line); an SM's L1 has one slice and no slice to find.
  if (spec_.slices > 1)
    for (std::size_t i = 0; i < n; ++i) out[i].slice = SectoredL2::slice_of(lines[i].addr);
  else
    for (std::size_t i = 0; i < n; ++i) out[i].slice = 0;
  // Compile-time associativities for the common sets (their loops unrolled, and each
  // cache's branches on their own host predictor entries); any other count scans.
  switch (spec_.ways) {
    case 16:
      return write ? lookup_batch<16, true>(lines, n, out) : lookup_batch<16, false>(lines, n, out);
    case 4:
      return write ? lookup_batch<4, true>(lines, n, out) : lookup_batch<4, false>(lines, n, out);
    default:
      return write ? lookup_batch<0, true>(lines, n, out) : lookup_batch<0, false>(lines, n, out);
  }
}

template <int kWays, bool kWrite>
void SectoredL2::lookup_batch(const L2Line* lines, std::size_t n, L2AccessResult* out) {
  // The tag array (megabytes) misses the host's caches on nearly every lookup: each
  // line's set is found and fetched kAhead lines before its lookup, the sets in flight
  // kept in a ring on the stack (a scratch array per cache, one per SM's L1, is cold in
  // the host's cache at every call). Same lookups, same order, same outcome as access().
  constexpr std::size_t kAhead = 8;  // a power of two: the ring's index is a mask
  Way* set_at[kAhead];
  std::uint64_t line_at[kAhead];
  Way* const ways = ways_;
  const std::uint64_t sets = sets_;
  const std::size_t per_set = std::size_t(kWays > 0 ? kWays : spec_.ways);
  const auto locate = [&](std::size_t j) {
    const std::uint64_t line = line_number(lines[j].addr);
    Way* const set = &ways[set_index(line, sets) * per_set];
    prefetch_set<kWays>(set);
    set_at[j & (kAhead - 1)] = set;
    line_at[j & (kAhead - 1)] = line;
  };
  for (std::size_t j = 0; j < std::min(n, kAhead); ++j) locate(j);
  for (std::size_t i = 0; i < n; ++i) {
    Way* const set = set_at[i & (kAhead - 1)];
    const std::uint64_t line = line_at[i & (kAhead - 1)];
    const std::uint8_t sectors = lines[i].sectors;
    if (i + kAhead < n) locate(i + kAhead);
    if constexpr (kWays == 4)
      access_set_4<kWrite>(set, line, sectors, out[i]);
    else
      access_set_n<kWays, kWrite>(set, line, sectors, out[i]);
  }
}

Cycle SectoredL2::reserve_slice(int slice, Cycle ready, double bytes) {
  const double d = bytes / spec_.slice_bytes_per_cycle;
  return slice_ports_[slice].reserve(ready, d) + d;
}

Cycle SectoredL2::reserve_crossbar(int from, int to, Cycle ready, double bytes) {
  if (spec_.crossbar_bytes_per_cycle <= 0 || from == to) return ready;
  const double d = bytes / spec_.crossbar_bytes_per_cycle;
  return crossbar_[std::size_t(from * spec_.partitions + to)].reserve(ready, d) + d;
}

Cycle SectoredL2::busy_cycles() const {
  Cycle b = 0;
  for (const auto& t : slice_ports_) b += t.busy_cycles();
  return b;
}

Cycle SectoredL2::idle_at() const {
  Cycle t = 0;
  for (const auto& p : slice_ports_) t = std::max(t, p.free_at());
  for (const auto& x : crossbar_) t = std::max(t, x.free_at());
  return t;
}

static Registrar<IL2Cache> reg_sectored{
    ComponentInfo{"l2", "sectored_lru",
                  "looks up lines by sector, allocates on miss, reports misses and dirty "
                  "evictions; slices serve bytes first come first served",
                  "sectored set-associative LRU write-back L2 with hashed slices",
                  SectoredL2Spec::params(), true},
    [](const ParamSet& p, const BuildContext&) {
      return std::make_unique<SectoredL2>(SectoredL2Spec::from(p));
    }};

}  // namespace stcsim
