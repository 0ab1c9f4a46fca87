// The kernel mapping: how a GEMM is cut into CTAs and warps and pipelined, separate
// from the hardware. It mirrors a CUTLASS multistage kernel: a CTA tile MxNxK, a warp
// tile, `stages` cp.async stages in shared memory, a rasterization swizzle and split-K.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/dtype.h"
#include "models/common/gemm_op.h"
#include "models/sm/sm_spec.h"
#include "sim/core/param.h"

namespace stcsim {

enum class SmemLayout { Swizzled, Padded, Naive };
const char* to_string(SmemLayout l);

// The parts of a multistage mainloop, as the validation harness's kernel names them
// (validation/cuda/dense_mainloop.cuh, MainloopPart): a GEMM runs them all; the
// mainloop-anatomy microbenchmark (models/ubench/mainloop_anatomy.cpp) leaves some out,
// as validation/ubench/mainloop_bench.cu does on the GPU, so the model's parts can be
// timed against the GPU's. Not a config key: only that benchmark sets it.
enum MainloopPart : unsigned {
  kMainloopCopy = 1,       // cp.async of the stages after the prologue's
  kMainloopBarrier = 2,    // the wait and the CTA barrier of every k-tile
  kMainloopFragments = 4,  // every k-sub's ldmatrix fragment loads
  kMainloopMma = 8,        // the mma instructions
  kMainloopAll = 15
};

// What a mma.sync / mma.sp mainloop's warps issue besides their mma and fragment loads,
// where it holds the loads back: read from a kernel's code (for the validation harness's
// kernels by scripts/count_harness_instructions.py from their PTX), not fitted. Each
// warp issues these on its sub-core's issue port (SmSpec::warp_issue_per_cycle), which
// its sub-core's warps share. Zeros (the default): none modelled, as for CUTLASS's
// mainloops, which spread their copies and addresses between the mma
// (copy_tiles_and_advance) where the port has room.
struct LoopInstructions {
  // At the top of each k-tile, after its barrier, before its first fragment load: the wait,
  // the barrier, the fragment addresses (the harness: 12-27 a warp), and the instructions
  // that issue the next stage's cp.async with their addresses (37-143), which a k-tile that
  // copies nothing (the last S-1, behind the harness's `if`) skips. A kernel with either
  // issues its copies there: the k-tile's cp.async bytes take the shared-memory port (the
  // LSU's path) ahead of its fragment reads, in program order (copies_first()); without,
  // behind each k-sub's reads (CUTLASS's order).
  int ktile_prelude = 0;
  int ktile_copy_instructions = 0;
  bool copies_first() const { return ktile_prelude > 0 || ktile_copy_instructions > 0; }
  // A rolled k-sub loop (`#pragma unroll 1`: the harness's 2:4 kernel): each k-sub's
  // fragments load only after the warp's last mma of the previous k-sub (nothing hoists
  // them across the loop's back edge), after `ksub_prelude` instructions at the loop's top.
  bool rolled_ksubs = false;
  int ksub_prelude = 0;
  // The same stretches as the warp issues them alone, in cycles: the sum of the stall
  // counts ptxas put on their instructions (its fixed-latency schedule: an instruction
  // waiting on the previous one's result, a branch's 15), read from the SASS by
  // scripts/sass_schedule.py. The instructions take their slots on the sub-core's issue
  // port; these cycles delay only the warp that runs them (another warp fills its gaps).
  // 0: as many cycles as instructions.
  int ktile_prelude_cycles = 0;
  int ktile_copy_cycles = 0;
  int ksub_prelude_cycles = 0;
  // A rolled k-sub loop whose later fragments load in program order after its first mma
  // (ptxas's schedule of the harness's 2:4 kernel: A, the metadata and the first column's
  // B, then that column's mma, then the other columns' B): its mma from index
  // `ksub_rest_from` on wait for those, loaded `ksub_rest_gap` cycles after the first mma
  // issues. 0: every fragment loads at the k-sub's top.
  int ksub_rest_from = 0;
  int ksub_rest_gap = 0;
  bool operator==(const LoopInstructions& o) const {
    return ktile_prelude == o.ktile_prelude &&
           ktile_copy_instructions == o.ktile_copy_instructions && rolled_ksubs == o.rolled_ksubs &&
           ksub_prelude == o.ksub_prelude && ktile_prelude_cycles == o.ktile_prelude_cycles &&
           ktile_copy_cycles == o.ktile_copy_cycles &&
           ksub_prelude_cycles == o.ksub_prelude_cycles && ksub_rest_from == o.ksub_rest_from &&
           ksub_rest_gap == o.ksub_rest_gap;
  }
  std::string key() const;  // for memoization keys
};

struct KernelMapping {
  int cta_m = 0, cta_n = 0, cta_k = 0;  // cta_k in elements of the input dtype
  int warp_m = 0, warp_n = 0;
  int stages = 0;
  int swizzle = 1;  // CTAs of `swizzle` adjacent N-tiles are launched together (L2 locality)
  int split_k = 1;  // K is cut into split_k slices reduced by a second kernel
  SmemLayout layout = SmemLayout::Swizzled;
  // Warp-specialized kernels (sm90): "cooperative" (two consumer warpgroups share each
  // tile) or "pingpong" (they alternate tiles); empty for the others, whose warps the
  // warp tile counts.
  std::string schedule;
  // Warp-specialized kernels: a cluster of cluster_m x cluster_n CTAs; those along M
  // share each B tile, those along N each A tile, by TMA multicast.
  int cluster_m = 1, cluster_n = 1;
  // Register buffers for each warp's B fragments in a mma.sync / mma.sp mainloop: 2 loads
  // k-sub k+1's B while k-sub k's mma issue; 1 reloads it only after the last mma that
  // read it (CUTLASS's sparse mainloop under register pressure). 0: not such a kernel.
  int b_fragment_buffers = 0;
  // The order a warp issues its warp tile's mma in: "rows" (a row of tiles per A fragment,
  // A reused from one mma to the next: our dense kernel), "serpentine" (rows, every other
  // one backwards, so B is reused at the turns too: CUTLASS's sm80 warp mma) or "columns"
  // (a column per B fragment, B reused: our 2:4 kernel). What the register operand path
  // reads (tensor_core.register_operand_bytes_per_cycle) follows from it.
  std::string mma_order = "rows";
  // Where a mma.sync / mma.sp mainloop waits for its next stage and syncs the CTA:
  // "last_ksub" (once every warp has begun its last k-sub; the next k-tile's first fragments
  // load under that k-sub's mma: CUTLASS's sm80 mainloops) or "ktile_end" (after each
  // warp's last mma of the k-tile; the first fragments only after it: the harness's
  // kernels, validation/cuda/dense_mainloop.cuh and sp24_kernel.cuh).
  std::string barrier_point = "last_ksub";
  // What a mma.sync / mma.sp kernel's epilogue stages the CTA's output tile in on its way
  // through shared memory: "accumulator" (the accumulators' own type, fp32 or int32,
  // converted after they are read back: CUTLASS's sm80 epilogues,
  // cutlass/epilogue/threadblock/default_epilogue_tensor_op.h, whose shared-memory tile
  // iterators take ElementAccumulator, also for a half output) or "output" (converted to
  // the output dtype first: the validation harness's kernels, validation/cuda/cta_tile.cuh
  // store_tile). A split-K slice's partial tile is fp32 either way.
  std::string epilogue_staging = "accumulator";
  LoopInstructions loop;                   // mapping.ktile_prelude_instructions, ksub_loop, ...
  unsigned mainloop_parts = kMainloopAll;  // MainloopPart bits the multistage kernel runs
  std::string chosen_by;                   // "config" or "heuristic: ..."

  int warps() const { return (cta_m / warp_m) * (cta_n / warp_n); }
  int threads() const { return warps() * 32; }
  // All stages of the A tile (values + metadata when sparse) and the B tile.
  std::int64_t smem_bytes(const MmaKind& k) const;
  int regs_per_thread(const MmaKind& k) const;  // estimate: accumulators + fragments + addressing
  std::string describe() const;
};

// Bytes of one element of the output tile as a mma.sync / mma.sp kernel's epilogue stages
// it through shared memory (KernelMapping::epilogue_staging): 4 for the accumulators (fp32
// or int32) and for a split-K slice's fp32 partials, else the output dtype's.
int staged_output_bytes(const KernelMapping& m, Dtype d);
// What each thread's st.shared writes while staging that tile: CUTLASS's accumulator tile
// iterator stores a thread's two adjacent fp32 accumulators of an mma fragment together
// (8 B: a warp's store fills two port cycles); the harness's store_tile
// (validation/cuda/cta_tile.cuh) one element of the staged type at a time (an f16 tile:
// 64 B a warp's store, half the port's 128 B a cycle).
int staging_store_lane_bytes_of(const KernelMapping& m, Dtype d);

struct Occupancy {
  int ctas_per_sm = 0;
  std::string limited_by;  // "smem", "registers", "threads", "ctas"
};
Occupancy occupancy(const KernelMapping& m, const SmSpec& sm, const MmaKind& k);

// What the chooser knows of the hardware: rates per core cycle.
struct ChooserHardware {
  int num_sms = 108;
  SmSpec sm;
  double mma_fma_per_cycle_per_sm = 1024;  // dense-equivalent, for the op's instruction kind
  double l2_bytes_per_cycle = 5120;
  double smem_bytes_per_cycle = 128;
  double dram_bytes_per_cycle = 1000;
  double dram_latency_cycles = 500;
};

// The user's mapping section: zeros mean "choose". The initialisers are the keys'
// defaults, read by params().
struct MappingRequest {
  int cta_m = 0, cta_n = 0, cta_k = 0, warp_m = 0, warp_n = 0, stages = 0, split_k = 0;
  int swizzle = 0;
  SmemLayout layout = SmemLayout::Swizzled;
  std::string kernel = "auto";                            // or a registered kernel's name
  std::string unstructured_kernel = "block_sparse_gemm";  // auto's kernel for 1x1-block weights
  std::string schedule = "auto";   // warp-specialized kernels: auto | cooperative | pingpong
  int cluster_m = 0;               // warp-specialized kernels: 1, 2 or 4 (0: chosen)
  int cluster_n = 0;               // warp-specialized kernels: 1, 2 or 4 (0: chosen)
  int b_fragment_buffers = 0;      // 1 or 2 (0: as CUTLASS's mainloop for the instruction)
  std::string mma_order = "rows";  // or "serpentine", "columns" (KernelMapping::mma_order)
  std::string barrier_point = "last_ksub";       // or "ktile_end" (KernelMapping::barrier_point)
  std::string epilogue_staging = "accumulator";  // or "output" (KernelMapping::epilogue_staging)
  LoopInstructions loop;                         // KernelMapping::loop
  unsigned mainloop_parts = kMainloopAll;        // set in code only (MainloopPart)
  // The CSR kernel's loop over a stage's nonzeros: "staged" (Sputnik: the stage's
  // activation rows loaded into registers, all in flight, before the FMAs) or "dependent"
  // (each nonzero's gather issued after the previous one's data is used).
  std::string csr_gather_loop = "staged";
  // Where the chooser's candidate tiles come from: "chooser" (the documented set),
  // "cutlass_sm80" (what CUTLASS's generator instantiates for sm80, cutlass_sm80_tiles.h,
  // for the multistage kernels) or "cutlass_sm90" (its sm90 tiles, clusters and schedules,
  // cutlass_sm90_tiles.h, for warp_specialized_gemm only).
  std::string policy = "chooser";  // or "exhaustive": the chooser's set, the best simulated
  int exhaustive_top = 4;          // exhaustive: candidates simulated per GEMM
  // Any of the tile keys given: the tile is validated, not searched.
  bool tile_given() const { return cta_m || cta_n || cta_k || warp_m || warp_n; }
  static std::vector<ParamDecl> params();
  static MappingRequest from(const ParamSet& p);
};

// How many B-fragment register buffers CUTLASS's sm80 mainloop keeps per warp for `k`:
// its sparse mainloop (threadblock/mma_sparse_multistage.h, Detail::kBBufferSize) gives up
// the double buffer when the accumulators are 32-bit and the warp tile is at least 64x64
// ("B operand is twice as big as A which brings very high register pressure"); the dense
// one (mma_multistage.h) always double-buffers.
int cutlass_b_fragment_buffers(int warp_m, int warp_n, const MmaKind& k);

// The documented candidate set (docs/mapping.md), for dtypes of 2-byte inputs;
// cta_k scales so a stage's bytes stay the same for other dtypes.
std::vector<KernelMapping> mapping_candidates(Dtype d);

// Check a mapping against the op's dtype and the SM; throws InputError naming the key.
void validate_mapping(const KernelMapping& m, const SmSpec& sm, const MmaKind& k);

// How the chooser scores a candidate tile for the kernel that will run it: the kernel's
// cycle estimate (empty: estimate_cycles, the multistage GEMM's) and whether the
// kernel can split K. Each kernel supplies its own (TensorCoreKernel::tile_cost), so
// the chooser knows no kernel kind.
struct TileCost {
  std::function<double(const KernelMapping&)> cycles;
  bool split_k = true;
};

// The user's mapping if complete, else the best candidate by the kernel's estimate.
// `op` is the problem as the kernel runs it (kernel_problem).
KernelMapping choose_mapping(const GemmOp& op, const ChooserHardware& hw, const MappingRequest& req,
                             const TileCost& cost = {});

// The `n` best candidates of `req` by the kernel's estimate, best first, each with its
// split-K and swizzle and `chosen_by` naming its rank; empty when the user gave the tile.
// What mapping.policy exhaustive simulates (models/gpu/gpu.cpp).
std::vector<KernelMapping> rank_mappings(const GemmOp& op, const ChooserHardware& hw,
                                         const MappingRequest& req, const TileCost& cost, int n);

// Block-sparse weights (op.block_map, blocks of r x c along the kernel's M and K): a CTA
// of cta_m rows runs over the union of its rows' kept block columns, so the chooser
// scores every candidate tile on the real map (panel_kept_k): a taller tile computes
// more efficiently but skips only columns that all its rows dropped. Split-K is off.
// Kept K (elements) of each row panel of cta_m rows of W [batch * m, k], panel order
// batch * tiles_m + tile_m.
std::vector<std::int64_t> panel_kept_k(const BlockMap& map, std::int64_t m, int batch,
                                       std::int64_t k, int cta_m);
// The block-skipping kernel's tile cost for `op` (with its block_map): the dense estimate
// over the CTAs' kept K, between the mean and the largest panel; no split-K.
TileCost block_tile_cost(const GemmOp& op, const ChooserHardware& hw);

// The CSR SpMM kernel's tile (Sputnik-style, models/kernels/csr_plan.h): 4 rows of W (one
// warp each) x `cols` activation columns per CTA (csr_tile_cols), 32 nonzeros per row
// per stage, double-buffered.
KernelMapping csr_mapping(int cols);

// The chooser's estimate of a candidate's cycles on the kernel problem `op` (exposed for
// tests and docs).
double estimate_cycles(const GemmOp& op, const ChooserHardware& hw, const KernelMapping& m);

}  // namespace stcsim
