// One simulation: an SM sends the L2 a fixed pseudo-random stream of requests, each an
// index-like run followed by the missed sectors of L1 lines, and prints what the memory
// system made of it as JSON. The missed sectors go either as `MemRequest::lines` (what
// the L1 gather sends) or as address runs, one per stretch of consecutive sectors,
// merged with the previous run when contiguous (what it sent before). Used by
// test_l2_lines, which requires the two forms to give the same figures exactly, for an
// L2 of the L1's geometry (128-byte lines) and of others (64 and 256), where the lines
// are cut again.
//   l2_lines_sim lines|runs LINE_BYTES
#include <cstdint>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "models/memory/hbm_dram.h"
#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"

using namespace stcsim;

namespace {

// A small L2 (32 KiB, 4 ways) over a 128 KiB region: hits, misses and dirty evictions.
SectoredL2Spec spec(int line_bytes) {
  SectoredL2Spec s;
  s.capacity_kib = 32;
  s.line_bytes = line_bytes;
  s.ways = 4;
  s.slices = 4;
  s.partitions = 2;
  s.far_extra_latency = 60;
  s.crossbar_bytes_per_cycle = 16;
  return s;
}

// Appends sectors [s, e) of `line` as a run, extending the last one when contiguous.
void add_stretch(MemRequest& r, std::uint64_t line, unsigned s, unsigned e) {
  const std::uint64_t at = line + s * MemRequest::kSectorBytes;
  const auto bytes = std::uint32_t((e - s) * MemRequest::kSectorBytes);
  if (!r.runs.empty() && r.runs.back().rows == 1 && r.runs.back().addr + r.runs.back().bytes == at)
    r.runs.back().bytes += bytes;
  else
    r.add_run(at, bytes);
}

struct Sender : sc_core::sc_module {
  SC_HAS_PROCESS(Sender);
  Sender(sc_core::sc_module_name n, MemorySystem& mem, bool as_lines)
      : sc_module(n), mem_(mem), as_lines_(as_lines) {
    SC_THREAD(run);
  }
  void run() {
    std::uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift: the same stream in both forms
    const auto next = [&x] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    constexpr std::uint64_t kRegion = 1 << 17;
    for (int q = 0; q < 400; ++q) {
      MemRequest r;
      r.write = q % 7 == 3;  // some writes leave dirty lines to evict
      // An index-like run first; it may end inside the first missed line.
      const std::uint64_t base = next() % kRegion / 32 * 32;
      r.add_run(base, std::uint32_t(32 * (1 + next() % 6)));
      if (!r.write) {
        std::uint64_t line = (r.runs.back().addr + r.runs.back().bytes) / 128 * 128;
        for (int i = 0; i < 12; ++i) {
          const auto sectors = std::uint8_t(1 + next() % 15);  // 0b0101 and the like too
          if (as_lines_) {
            r.lines.push_back(L2Line{line, sectors});
          } else {
            for (unsigned m = sectors; m != 0;) {
              const unsigned s = unsigned(__builtin_ctz(m)),
                             e = s + unsigned(__builtin_ctz(~(m >> s)));
              m &= ~((1u << e) - 1);
              add_stretch(r, line, s, e);
            }
          }
          // Mostly the next line (runs then merge across lines), sometimes a jump.
          line = next() % 4 == 0 ? next() % kRegion / 128 * 128 : line + 128;
        }
      }
      bytes += r.bytes();
      mem_.submit(0, {&r});
      wait(mem_.grant(0));
      done_sum += r.done;
      last = r.done;
      wait_until(now_cycles() + 20.0);
    }
  }
  MemorySystem& mem_;
  bool as_lines_;
  double bytes = 0;
  Cycle done_sum = 0, last = 0;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string form = argc > 1 ? argv[1] : "";
  const int line_bytes = argc > 2 ? std::atoi(argv[2]) : 0;
  if ((form != "lines" && form != "runs") ||
      (line_bytes != 64 && line_bytes != 128 && line_bytes != 256)) {
    std::cerr << "usage: l2_lines_sim lines|runs 64|128|256\n";
    return 2;
  }
  HbmDramSpec d;
  d.bandwidth_gbps = 1000;
  d.channels = 4;
  d.latency_ns = 100;
  d.efficiency = 1.0;
  MemorySystem mem("mem", 2, 64, std::make_unique<SectoredL2>(spec(line_bytes)),
                   std::make_unique<HbmDram>(d, 1000));
  Sender sender("sender", mem, form == "lines");
  sc_core::sc_start();
  const MemoryCounters& c = mem.counters();
  std::cout.precision(17);
  std::cout << "{\"l2_read_sectors\": " << c.l2_read_sectors
            << ", \"l2_read_miss_sectors\": " << c.l2_read_miss_sectors
            << ", \"l2_write_sectors\": " << c.l2_write_sectors
            << ", \"dram_read_bytes\": " << c.dram_read_bytes
            << ", \"dram_write_bytes\": " << c.dram_write_bytes
            << ", \"link_bytes\": " << c.link_bytes << ", \"request_bytes\": " << sender.bytes
            << ", \"done_sum\": " << sender.done_sum << ", \"last_done\": " << sender.last
            << ", \"idle_at\": " << mem.idle_at() << "}\n";
  return 0;
}
