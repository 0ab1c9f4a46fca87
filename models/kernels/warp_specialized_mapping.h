// The tile, schedule and stage count of the warp-specialized persistent GEMM (sm90):
// candidates from the tile and schedule sets CUTLASS's generator instantiates for sm90
// 16-bit dense and 2:4 GEMMs (TileShape M in {64, 128, 256}, N in {64, 128, 256}, K of
// 128 bytes of A per stage; cooperative needs M >= 128, pingpong runs M <= 128; clusters
// of 1 or 2 CTAs along M), ranked by the documented estimate below, or the user's tile
// when mapping.cta_m/cta_n are set. A cluster of cm x cn CTAs runs a cm x cn block of
// adjacent tiles at once: the cm CTAs of a tile column each load 1/cm of their common B
// tile and multicast it to the others, the cn CTAs of a tile row likewise 1/cn of their
// A tile. It needs the tiles to come in whole clusters and plain raster order.
#pragma once
#include <vector>

#include "models/kernels/i_kernel.h"

namespace stcsim {

// What one mapping means for the warpgroups that run it.
struct WsWork {
  MmaKind wgmma;             // m64 x cta_n x K of the op's dtype and pattern
  int wgmma_per_kblock = 0;  // per tile and k-block: (cta_m / 64) x (cta_k / K)
  double operand_bytes = 0;  // shared-memory bytes one wgmma reads: A values, metadata, B
  double stage_bytes = 0;    // one stage: the A tile (+ metadata) and the B tile
  double a_tile_bytes = 0;   // the A tile (+ metadata) of one stage (shared along N)
  double b_tile_bytes = 0;   // the B tile of one stage (shared along M)
  double epilogue_smem = 0;  // the epilogue's store buffers
  int boxes_per_stage = 2;   // TMA boxes per stage: A, B (and metadata)
};
WsWork ws_work(const KernelMapping& m, const MmaKind& kind);

// Register budget per thread after setmaxnreg (CUTLASS sm90: producer 40, consumers 232).
inline constexpr int kWsProducerRegs = 40, kWsConsumerRegs = 232, kWsThreads = 384;

// Stages that fit the CTA's shared memory beside the epilogue buffers (0: not even 2).
int ws_stages(const KernelMapping& m, const MmaKind& kind, const SmSpec& sm);

// The estimate the chooser ranks by (cycles): persistent CTAs each run their share of
// tiles at the slowest of tensor issue, shared-memory operand reads and fills, and L2
// delivery per k-block, plus the cooperative schedule's exposed epilogue; never below
// the DRAM time of reading A and B and writing D once.
double ws_estimate_cycles(const GemmOp& op, const KernelEnv& env, const KernelMapping& m);

// The chooser's candidates (mapping.policy chooser): the table above at clusters 1x1 and
// 2x1, or at the cluster the mapping asks for (cluster_m, cluster_n).
std::vector<KernelMapping> ws_candidates(const GemmOp& op, const KernelEnv& env);
// mapping.policy cutlass_sm90: the entries CUTLASS's generator instantiates for sm90
// (models/mapping/cutlass_sm90_tiles.h) that this kernel runs as CUTLASS would: their
// clusters (2x1x1 multicasting B, 1x2x1 multicasting A), accumulators within the
// consumers' registers (ws_accumulator_regs; a spilling kernel is not modelled), stages
// as many as fit (CUTLASS's StageCountAutoCarveout). chosen_by names the entry.
std::vector<KernelMapping> ws_cutlass_sm90_candidates(const GemmOp& op, const KernelEnv& env);
// 32-bit accumulator registers per consumer thread: the tile over 256 threads
// (cooperative: both warpgroups on it) or 128 (pingpong: one warpgroup owns it).
int ws_accumulator_regs(const KernelMapping& m);
// The best candidate of mapping.policy (chooser or cutlass_sm90) by ws_estimate_cycles,
// ties to the larger tile; InputError under cutlass_sm80 (mma.sync tiles) or when no
// candidate runs.
KernelMapping choose_ws_mapping(const GemmOp& op, const KernelEnv& env);

}  // namespace stcsim
