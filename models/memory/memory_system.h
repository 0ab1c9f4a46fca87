// The memory side of the GPU: each SM's link to the L2, the sliced L2 and DRAM.
//
// SMs submit requests during a delta cycle; one arbitration step then serves every
// request of that delta in (SM id, submission order) order, so the outcome never
// depends on which SM process SystemC happened to run first. Each request learns the
// cycle its data lands (reads) or is written into the L2 (writes) and the SM is woken
// by its own grant event. With a partitioned L2, SM s is attached to partition
// s * partitions / num_sms (GPCs are wired to one partition each), and its accesses to
// slices of the other partition pay the far latency and cross the crossbar.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "models/common/timeline.h"
#include "models/memory/i_dram.h"
#include "models/memory/i_l2_cache.h"

namespace stcsim {

// `rows` rows of `bytes` contiguous bytes, `stride` bytes apart, starting at `addr`.
struct RowRun {
  std::uint64_t addr = 0;
  std::uint32_t bytes = 0;
  std::uint32_t rows = 0;
  std::uint64_t stride = 0;
};

struct MemRequest {
  // The geometry of `lines`: the SM's L1 (128-byte lines of four 32-byte sectors).
  static constexpr int kLineBytes = 128;
  static constexpr int kSectorBytes = 32;
  bool write = false;
  std::vector<RowRun> runs;
  // Lines already cut by a requester that looked them up itself (an L1's misses), each
  // with its sectors (bit i: bytes [32i, 32i + 32)), looked up after the runs' lines, in
  // order: the L2 takes them as they are instead of as runs it would cut back into lines.
  std::vector<L2Line> lines;
  int tag = 0;  // the requester's own bookkeeping
  // Reads: bytes a cluster peer's TMA multicast delivers into this SM along with this
  // request's own data. They cross this SM's link but were read from the L2 once, by
  // the peer (whose request, symmetric to this one, lands at the same time).
  double multicast_bytes = 0;
  // Filled in by the memory system:
  Cycle done = 0;       // reads: data in shared memory; writes: data in the L2
  Cycle link_done = 0;  // the last byte crossed the SM's link

  // Empties it for reuse, keeping the runs' and lines' storage (kernels refill one per
  // stage).
  void reset() {
    std::vector<RowRun> keep = std::move(runs);
    std::vector<L2Line> keep_lines = std::move(lines);
    keep.clear();
    keep_lines.clear();
    *this = MemRequest{};
    runs = std::move(keep);
    lines = std::move(keep_lines);
  }

  // Nothing to fetch or store.
  bool empty() const { return runs.empty() && lines.empty(); }

  // Appends a run, written field by field in place: a RowRun built aside is stored in
  // pieces and copied whole, which stalls the host's store forwarding once per run (hot
  // in the gather kernels, a run per missed line).
  void add_run(std::uint64_t addr, std::uint32_t bytes, std::uint32_t rows = 1,
               std::uint64_t stride = 0) {
    RowRun& run = runs.emplace_back();
    run.addr = addr;
    run.bytes = bytes;
    run.rows = rows;
    run.stride = stride;
  }

  // The bytes its runs and lines name (not counting multicast_bytes).
  double bytes() const {
    // Summed as integers (exact, and without a chain of floating-point adds: a gather
    // stage has a line per missed line).
    std::uint64_t b = 0;
    for (const auto& run : runs) b += std::uint64_t(run.bytes) * run.rows;
    for (const auto& line : lines) b += std::uint64_t(sector_count(line.sectors)) * kSectorBytes;
    return double(b);
  }
};

struct MemoryCounters {
  double l2_read_sectors = 0, l2_read_miss_sectors = 0, l2_write_sectors = 0;
  double dram_read_bytes = 0, dram_write_bytes = 0;
  double link_bytes = 0;
};

class MemorySystem : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MemorySystem);
  MemorySystem(sc_core::sc_module_name name, int num_sms, double link_bytes_per_cycle,
               std::unique_ptr<IL2Cache> l2, std::unique_ptr<IDram> dram);

  // Queue requests for this delta; `grant(sm)` is notified when their results are in.
  void submit(int sm, std::vector<MemRequest*> reqs);
  sc_core::sc_event& grant(int sm) { return grant_[sm]; }

  const IL2Cache& l2() const { return *l2_; }
  const IDram& dram() const { return *dram_; }
  const MemoryCounters& counters() const { return counters_; }
  Cycle link_busy_cycles() const;
  void invalidate_l2() { l2_->invalidate_all(); }
  // Make [addr, addr + bytes) resident in the L2, clean, untimed: what a host-to-device
  // copy leaves behind (the microbenchmarks' chains).
  void preload_l2(std::uint64_t addr, double bytes) {
    const auto line = std::uint64_t(l2_->line_bytes());
    for (std::uint64_t a = addr / line * line; double(a) < double(addr) + bytes; a += line)
      l2_->access(a, std::uint8_t((1u << (line / std::uint64_t(l2_->sector_bytes()))) - 1), false);
  }
  // The cycle by which every link, L2 slice, crossbar link and DRAM channel has served
  // the traffic it accepted (write-backs of evicted lines included).
  Cycle idle_at() const;
  sc_core::sc_signal<int> inflight_requests{"inflight_requests"};  // for VCD tracing
  bool trace_signals = false;

 private:
  void arbitrate();
  void serve(int sm, MemRequest& r, Cycle now);

  std::unique_ptr<IL2Cache> l2_;
  std::unique_ptr<IDram> dram_;
  int num_sms_;
  double link_bpc_;
  std::vector<Timeline> read_link_, write_link_;
  std::vector<sc_core::sc_event> grant_;
  std::vector<std::vector<MemRequest*>> pending_;  // per SM, in submission order
  sc_core::sc_event submitted_;
  MemoryCounters counters_;
  // Scratch per request: bytes per slice / channel, and which were touched.
  // Whole bytes, summed as integers (the host adds them in one cycle, not four).
  std::vector<std::int64_t> slice_bytes_, chan_read_, chan_write_;
  std::vector<char> chan_far_;  // a read miss of this request on the channel came from a far slice
  std::vector<int> slices_touched_;  // sized to the slices (+1: written before it is kept)
  std::vector<int> chans_touched_;
  int line_shift_, sector_shift_;  // log2 of the L2's line and sector sizes
  std::vector<L2Line> lines_;      // the request's lines, in order (grown, never shrunk)
  std::vector<L2AccessResult> results_;
  std::vector<Cycle> inflight_until_;
};

}  // namespace stcsim
