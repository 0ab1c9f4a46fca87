// One simulation: SM 0 (of two, so in L2 partition 0) reads L2 lines at a quiet time,
// after a warm-up pass has brought them into the L2, and prints how long the read took
// as JSON. Used by test_l2_partition, which derives each figure by hand.
//   l2_partition_sim CASE     near_hit | far_hit | far_burst | unpartitioned
#include <iostream>
#include <string>
#include <systemc>

#include "models/memory/hbm_dram.h"
#include "models/memory/memory_system.h"
#include "models/memory/sectored_l2.h"

using namespace stcsim;

namespace {

// The figures the test's arithmetic uses: hit latency 100 (50 each way), far extra 60
// (30 each way), 64 B/cycle per slice and per SM link, a 16 B/cycle crossbar.
SectoredL2Spec spec(int partitions) {
  SectoredL2Spec s;
  s.capacity_kib = 64;
  s.ways = 4;
  s.slices = 4;  // partition 0: slices 0-1, partition 1: slices 2-3
  s.slice_bytes_per_cycle = 64;
  s.hit_latency = 100;
  s.partitions = partitions;
  s.far_extra_latency = 60;
  s.crossbar_bytes_per_cycle = 16;
  return s;
}

struct Reader : sc_core::sc_module {
  SC_HAS_PROCESS(Reader);
  Reader(sc_core::sc_module_name n, MemorySystem& mem, std::vector<std::uint64_t> lines)
      : sc_module(n), mem_(mem), lines_(std::move(lines)) {
    SC_THREAD(run);
  }
  Cycle read_all() {
    MemRequest r;
    for (auto a : lines_) r.runs.push_back(RowRun{a, 128, 1, 128});
    const Cycle start = now_cycles();
    mem_.submit(0, {&r});
    wait(mem_.grant(0));
    wait_until(r.done);
    return r.done - start;
  }
  void run() {
    read_all();                           // warm-up: misses, filled from DRAM
    wait_until(now_cycles() + 100000.0);  // every resource idle again
    latency = read_all();                 // every line now hits
  }
  MemorySystem& mem_;
  std::vector<std::uint64_t> lines_;
  Cycle latency = 0;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string c = argc > 1 ? argv[1] : "";
  if (c != "near_hit" && c != "far_hit" && c != "far_burst" && c != "unpartitioned") {
    std::cerr << "usage: l2_partition_sim near_hit|far_hit|far_burst|unpartitioned\n";
    return 2;
  }
  const SectoredL2Spec l2 = spec(c == "unpartitioned" ? 1 : 2);
  SectoredL2 probe(l2);
  // Lines in one slice of the wanted partition: slice 0 (near SM 0) or slice 2 (far).
  const int want = c == "near_hit" ? 0 : 2;
  const std::size_t count = c == "far_burst" ? 32 : 1;
  std::vector<std::uint64_t> lines;
  for (std::uint64_t a = std::uint64_t(1) << 30; lines.size() < count; a += 128)
    if (probe.slice_of(a) == want) lines.push_back(a);
  HbmDramSpec d;
  d.bandwidth_gbps = 1000;
  d.channels = 4;
  d.latency_ns = 100;
  d.efficiency = 1.0;
  MemorySystem mem("mem", 2, 64, std::make_unique<SectoredL2>(l2),
                   std::make_unique<HbmDram>(d, 1000));
  Reader reader("reader", mem, lines);
  sc_core::sc_start();
  std::cout << "{\"latency\": " << reader.latency << ", \"lines\": " << lines.size() << "}\n";
  return 0;
}
