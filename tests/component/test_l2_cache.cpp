#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "models/memory/hbm_dram.h"
#include "models/memory/sectored_l2.h"

using namespace stcsim;

namespace {
SectoredL2Spec tiny() {
  SectoredL2Spec s;
  s.capacity_kib = 64;  // 512 lines of 128 B
  s.ways = 4;
  s.slices = 4;
  return s;
}
}  // namespace

TEST_CASE("l2_sectors_hit_after_miss", "[l2]") {
  SectoredL2 l2(tiny());
  CHECK(l2.access(0x1000, 0b0011, false).miss_sectors == 0b0011);
  CHECK(l2.access(0x1000, 0b0011, false).miss_sectors == 0);
  CHECK(l2.access(0x1000, 0b1111, false).miss_sectors == 0b1100);  // only the new sectors
  CHECK(l2.access(0x2000, 0b1111, true).miss_sectors == 0);        // full-sector write: no fill
}

TEST_CASE("l2_lru_eviction_and_dirty_writeback", "[l2]") {
  SectoredL2 l2(tiny());
  // Stream far more lines than the cache holds, written: evictions carry dirty sectors.
  int evicted_dirty = 0;
  for (std::uint64_t i = 0; i < 4096; ++i)
    if (l2.access(i * 128, 0b1111, true).evicted_dirty == 0b1111) ++evicted_dirty;
  CHECK(evicted_dirty >= 4096 - 512);  // at most 512 lines can still be resident
  CHECK(evicted_dirty < 4096);
}

TEST_CASE("l2_true_lru_within_a_set", "[l2]") {
  SectoredL2 l2(tiny());  // 4 ways
  // Five lines that map to the same set.
  std::vector<std::uint64_t> same;
  for (std::uint64_t a = 0; same.size() < 5; a += 128)
    if (l2.set_of(a) == l2.set_of(0)) same.push_back(a);
  for (int i = 0; i < 4; ++i)  // line 1 is written: a full-sector write needs no fill
    CHECK(l2.access(same[i], 1, i == 1).miss_sectors == (i == 1 ? 0 : 1));
  CHECK(l2.access(same[0], 1, false).miss_sectors == 0);  // touch: line 1 is now LRU
  const auto r = l2.access(same[4], 1, false);            // evicts the least recently used
  CHECK(r.evicted_line_addr == same[1]);
  CHECK(r.evicted_dirty == 1);  // line 1 was written
  CHECK(l2.access(same[0], 1, false).miss_sectors == 0);
  CHECK(l2.access(same[1], 1, false).miss_sectors == 1);
}

TEST_CASE("l2_slice_bandwidth_fcfs", "[l2]") {
  SectoredL2 l2(tiny());  // 64 B/cycle per slice
  CHECK(l2.reserve_slice(0, 0, 640) == 10);
  CHECK(l2.reserve_slice(0, 0, 64) == 11);
  CHECK(l2.reserve_slice(1, 5, 64) == 6);
}

TEST_CASE("dram_channel_rate_and_latency", "[dram]") {
  HbmDramSpec s;
  s.bandwidth_gbps = 1000;
  s.channels = 10;
  s.latency_ns = 100;
  s.efficiency = 0.5;
  HbmDram d(s, 1000);  // 1 GHz: 1000 B/cycle peak, 50 B/cycle sustained per channel
  CHECK(d.peak_bytes_per_cycle() == Approx(1000));
  CHECK(d.sustained_bytes_per_cycle() == Approx(500));
  CHECK(d.reserve(3, 0, 500) == Approx(10 + 100));
  CHECK(d.reserve(3, 0, 500) == Approx(20 + 100));
}

TEST_CASE("l2_is_true_lru_against_a_reference_model", "[l2]") {
  // The tag store keeps each set's ways in recency order (no stamps, nothing to wrap:
  // issue 18 saw a wrapped 32-bit stamp make recent lines look oldest). A plain model of
  // a set-associative write-back LRU cache, sets taken from the store's own hash, must
  // see every hit, miss, fill and dirty eviction the store reports. Every associativity
  // the store has its own code for: 4 (the whole set compared and shifted without a
  // branch, a miss shifting from the last way whether it is empty or evicted), 16
  // (compiled for its count: the head of a set compared without branches, then a scan),
  // 8 and 32 (a head and a scan at run time), 1 and 2 (smaller than the head: a scan
  // only).
  for (const int ways : {1, 2, 4, 8, 16, 32}) {
    SectoredL2Spec spec = tiny();
    spec.ways = ways;
    SectoredL2 l2(spec);
    struct Line {
      std::uint64_t addr;
      std::uint8_t valid, dirty;
    };
    std::map<std::uint64_t, std::vector<Line>> sets;  // most recently used first
    std::uint64_t x = 12345;
    int differences = 0, misses = 0, evictions = 0, deep_hits = 0;
    for (int i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t addr = ((x >> 33) % 1536) * 128;  // 3x the capacity: evictions
      const bool write = (x >> 20) & 1;
      const auto sectors = std::uint8_t(1u << ((x >> 24) % 4) | 1u << ((x >> 27) % 4));
      std::vector<Line>& set = sets[l2.set_of(addr)];
      L2AccessResult want;
      auto it = std::find_if(set.begin(), set.end(), [&](const Line& l) { return l.addr == addr; });
      if (it != set.end()) {
        deep_hits += it - set.begin() >= 4;
        Line l = *it;
        want.miss_sectors = write ? 0 : std::uint8_t(sectors & ~l.valid);
        l.valid |= sectors;
        if (write) l.dirty |= sectors;
        set.erase(it);
        set.insert(set.begin(), l);
      } else {
        want.miss_sectors = write ? 0 : sectors;
        if (int(set.size()) == spec.ways) {
          want.evicted_dirty = set.back().dirty;
          if (set.back().dirty) want.evicted_line_addr = set.back().addr;
          set.pop_back();
        }
        set.insert(set.begin(), Line{addr, sectors, std::uint8_t(write ? sectors : 0)});
      }
      const L2AccessResult got = l2.access(addr, sectors, write);
      if (got.miss_sectors != want.miss_sectors || got.evicted_dirty != want.evicted_dirty ||
          got.evicted_line_addr != want.evicted_line_addr)
        ++differences;
      misses += want.miss_sectors != 0;
      evictions += want.evicted_dirty != 0;
    }
    INFO("ways " << ways);
    CHECK(differences == 0);
    CHECK(misses > 1000);  // the stream does miss and evict, so the recency order matters
    CHECK(evictions > 1000);
    if (ways > 4) CHECK(deep_hits > 100);  // hits past the head: the scan is exercised
    // After invalidate_all every line misses again.
    l2.invalidate_all();
    CHECK(l2.access(0, 0b1111, false).miss_sectors == 0b1111);
  }
}

TEST_CASE("l2_access_lines_matches_access_one_by_one", "[l2]") {
  // The batched lookup (tags prefetched ahead, issue 18) must give every hit, miss and
  // eviction that single lookups give, batch sizes around and past the prefetch distance.
  SectoredL2Spec spec = tiny();
  spec.ways = GENERATE(4, 16, 8);  // the batch loop is compiled per associativity too
  SectoredL2 single(spec), batched(spec);
  std::uint64_t x = 987654321;
  int differences = 0, misses = 0;
  for (std::size_t batch : {1u, 3u, 8u, 9u, 40u, 200u}) {
    for (int round = 0; round < 50; ++round) {
      std::vector<L2Line> lines(batch);
      const bool write = round % 3 == 0;
      for (auto& l : lines) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        l.addr = ((x >> 33) % 1536) * 128;  // 3x the capacity: evictions
        l.sectors = std::uint8_t(1u + ((x >> 20) & 0xE));
      }
      std::vector<L2AccessResult> got(batch);
      batched.access_lines(lines.data(), lines.size(), write, got.data());
      for (std::size_t i = 0; i < batch; ++i) {
        const auto want = single.access(lines[i].addr, lines[i].sectors, write);
        if (want.miss_sectors != got[i].miss_sectors ||
            want.evicted_dirty != got[i].evicted_dirty ||
            want.evicted_line_addr != got[i].evicted_line_addr)
          ++differences;
        if (want.miss_sectors || want.evicted_dirty) ++misses;
      }
    }
  }
  CHECK(differences == 0);
  CHECK(misses > 1000);
}
