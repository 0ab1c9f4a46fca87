// The CTA of the warp-specialized persistent GEMM (CUTLASS sm90 "TmaWarpSpecialized"
// kernels): one producer warpgroup and consumers, over a ring of shared-memory stages
// guarded by a full and an empty mbarrier each.
//   producer  for each of the CTA's tiles (static persistent schedule: tiles c, c + grid,
//             ...) and each k-block, waits until the stage is empty, then has the TMA
//             unit copy the A (+ metadata) and B boxes into it; the stage turns full when
//             the mbarrier is seen to flip.
//   consumer  waits until the stage is full, issues the k-block's wgmma (fence, wgmma
//             per m64 row block and K step, commit), then waits for the previous k-block's
//             group (wait_group 1) and releases that stage; after a tile's last k-block it
//             waits for everything (wait_group 0), writes the accumulators to shared
//             memory and has the TMA unit store them.
// Clusters of cm x cn CTAs (mapping.cluster_m, cluster_n): the cm CTAs of a tile column
// each load 1/cm of the B tile they share, the cn CTAs of a tile row 1/cn of their A
// tile, and their TMA multicasts it into the peers' shared memory; peers run in lockstep
// (same k-block at the same time), so a stage is full when the CTA's own request has
// landed, and the peers' shares cross its link with it.
// Split-K (mapping.split_k, CUTLASS's stream-K scheduler in its split-K mode with the
// deterministic reduction): the tile list holds each output tile once per K slice,
// slice-major, so a tile's slices run side by side on different CTAs. After its
// mainloop a slice takes its turn in the tile's workspace lock: the first stores its
// fp32 accumulators into the tile's workspace, each later one waits until the one before
// it has arrived (spinning on the lock: one L2 round trip a poll), then adds its
// accumulators there (reads the partial, writes the sum), and the last reads the sum
// into its accumulators and runs the epilogue. The reductions of one tile are serial.
// `cooperative`: one consumer of two warpgroups, both on every tile (each m64 row block
// a wgmma), so the epilogue stalls the tensor cores. `pingpong`: two consumers own
// alternate tiles and take turns (an ordered barrier) at the mainloop, so one's
// epilogue runs under the other's wgmma.
//
// Timing: a wgmma occupies all four sub-core pipes for its m16 slices and the shared
// memory matrix path for its operand bytes, from the later of the two being free; its
// result follows the pipes' latency. A stage's TMA writes occupy the shared-memory port
// when the stage is consumed, in slices ahead of each wgmma's operand reads (as the
// cp.async fills of the multistage kernel are charged per k-sub): the port is a
// first-come-first-served queue that cannot backfill, so charging a whole stage at once
// would leave the gaps between the wgmmas' reads unused.
#pragma once
#include <vector>

#include "models/kernels/gemm_tensors.h"
#include "models/kernels/warp_specialized_mapping.h"
#include "models/sm/cta_program.h"
#include "models/sm/stall_counters.h"

namespace stcsim {

struct WsLaunch : KernelLaunch, GemmTensors {
  std::vector<CtaTask> tiles;  // output tiles in raster order
  int grid = 0;                // persistent CTAs
  int consumers = 1;           // 1: cooperative, 2: pingpong
  WsWork work;
  // Split-K: for each entry of `tiles`, the entry of the same output tile's previous K
  // slice (-1: the first) and whether it is the last slice; empty without split-K.
  std::vector<std::int64_t> prev_slice;
  std::vector<char> last_slice;
  Cycle lock_poll_cycles = 0;  // one poll of a workspace lock: an L2 round trip
  // The workspace locks: when each entry's slice has arrived (its partial is in the
  // workspace), written by the CTA that ran it and read by the next slice's CTA (which
  // may run on another SM). Unknown until then.
  mutable std::vector<Cycle> arrived;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
  // No slice has arrived yet.
  void begin_run() const override;
};

class WsCta : public CtaProgram {
 public:
  // CTA `t.panel` of the persistent grid.
  WsCta(const WsLaunch& k, const CtaTask& t, SmContext& sm);
  bool advance(Cycle now) override;

 private:
  struct Consumer {
    std::size_t tile = 0;                         // position in tiles_ of the current tile
    std::int64_t kb = 0;                          // next k-block of it
    Cycle ready = 0;                              // may issue again (wait_group, epilogue buffer)
    StallCause waited = StallCause::CtaBoundary;  // what held its next issue back
    Cycle prev_done = 0;                          // the last k-block's wgmma group completes
    int prev_stage = -1;
    // Split-K slices pass through Lock (waiting for the previous slice), Partial (its sum
    // read from the workspace) and Arrive (their own sum stored there) after Drain.
    enum class Phase {
      Main,
      Drain,
      Lock,
      Partial,
      Arrive,
      Staged,
      Issue,
      Storing,
      Done
    } phase = Phase::Main;
    Cycle wake = 0;
    Cycle buffer_free = 0;  // the previous TMA store has read the epilogue buffer
    MemRequest store;
    MemRequest partial;   // split-K: the tile's sum so far, read from the workspace
    Cycle lock_from = 0;  // split-K: when it began polling the workspace lock
  };

  bool produce(Cycle now);
  // After its mainloop, consumer `c`'s split-K steps (Lock, Partial, Arrive); false when
  // it has to wait.
  bool reduce_slice(Consumer& c, Cycle now);
  // The epilogue's first step: the accumulators into the epilogue buffer.
  void stage_output(Consumer& c, Cycle now);
  // The converted output tile's bytes (the epilogue buffer's contents).
  double output_tile_bytes() const {
    return double(k_.map.cta_m) * k_.map.cta_n * output_bytes(k_.op.dtype);
  }
  // Split-K: whether work entry `unit` is a slice of a split tile (takes part in its
  // workspace reduction) rather than a whole tile.
  bool reduces(std::size_t unit) const;
  // Split-K: the read (or write) of consumer `c`'s tile's fp32 sum in the workspace.
  void workspace_tile(const Consumer& c, bool write, MemRequest& r) const;
  // Split-K: submits consumer `c`'s partial sum, into its tile's workspace.
  void store_partial(Consumer& c);
  // Split-K: when consumer `c`'s timed partial store is wholly in the L2.
  static Cycle partial_in_l2(const Consumer& c);
  // Split-K: when consumer `c` sees the previous slice's arrival (unknown: not yet).
  Cycle lock_seen(const Consumer& c) const;
  bool consume(Consumer& c, Cycle now);
  void issue_kblock(Consumer& c, int stage, Cycle now);
  // When consumer `c` could next move, if that is known (no_time: it waits on another agent).
  Cycle next_event(const Consumer& c) const;

  const WsLaunch& k_;
  SmContext& sm_;
  std::vector<std::size_t> tiles_;  // indices into k_.tiles, in this CTA's order
  // The first load of each of tiles_ (and the total after the last): tiles of a causal
  // op have fewer k-blocks below the diagonal.
  std::vector<std::int64_t> first_load_;
  std::size_t load_tile_ = 0;  // the tile of next_load_
  bool launched_ = false;
  // The stage ring: the load each stage holds (-1: none yet), when it is seen full (or
  // not known yet), when it is empty again (released by its consumer; not known yet
  // while held), and its request.
  std::vector<std::int64_t> holds_;
  std::vector<Cycle> full_, empty_;
  std::vector<bool> in_flight_;
  std::vector<MemRequest> loads_;
  std::int64_t next_load_ = 0;
  Cycle submit_at_ = -1;  // the TMA unit accepted the next load's boxes; its requests enter then
  std::vector<Consumer> consumers_;
  std::size_t turn_ = 0;  // pingpong: the tile whose mainloop may run next
  Cycle turn_at_ = 0;     // and from when
  bool submitted_ = false;
  std::vector<Cycle> free_before_;  // scratch of issue_kblock: when each pipe went idle
};

}  // namespace stcsim
