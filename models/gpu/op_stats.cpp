// The stats the GPU reports for every op (Gpu::collect, gpu.cpp) and the op's own
// description, declared once (sim/core/stat.h): stats.json, the totals and
// `stcsim stats` are written from these. Kernel-specific stats live with their kernel.
#include <algorithm>
#include <array>

#include "models/kernels/op_result.h"

namespace stcsim {

std::string pick_limiter(const OpResult& r) {
  const std::pair<const char*, double> u[] = {
      {"tensor", r.util_tensor}, {"smem", r.util_smem},       {"l2", r.util_l2},
      {"dram", r.util_dram},     {"l2_link", r.util_l2_link}, {"cuda_cores", r.util_cuda}};
  auto best = u[0];
  for (const auto& x : u)
    if (x.second > best.second) best = x;
  return best.second >= 0.5 ? best.first : "latency";
}

namespace {

constexpr const char* kGpu = "gpu";
constexpr const char* kOp = "op (the workload)";
constexpr const char* kKernel = "kernel";

// --- the op ---------------------------------------------------------------------------
const OpStat name{
    {"name", "-", "the GEMM's name; `total` for the whole run", StatTotal::kLabel, kOp},
    computed<OpResult>([](const OpResult& r) { return r.op.name; })};
const OpStat m{{"m", "elements", "rows of A and D (tokens)", StatTotal::kNone, kOp},
               computed<OpResult>([](const OpResult& r) { return r.op.m; })};
const OpStat n{{"n", "elements", "columns of D (output features)", StatTotal::kNone, kOp},
               computed<OpResult>([](const OpResult& r) { return r.op.n; })};
const OpStat k{{"k", "elements", "the reduction dimension (input features)", StatTotal::kNone, kOp},
               computed<OpResult>([](const OpResult& r) { return r.op.k; })};
const OpStat batch{{"batch", "GEMMs", "independent GEMMs of this shape in one kernel (conv groups)",
                    StatTotal::kNone, kOp},
                   computed<OpResult>([](const OpResult& r) { return r.op.batch; })};
const OpStat dtype{
    {"dtype", "-", "input data type (fp16, bf16, tf32, int8, fp8_e4m3, fp8_e5m2)", StatTotal::kNone,
     kOp},
    computed<OpResult>([](const OpResult& r) { return std::string(to_string(r.op.dtype)); })};
const OpStat sparsity{
    {"sparsity", "-", "N:M sparsity of the weights run on mma.sp, e.g. `2:4`; `dense`",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult& r) { return r.op.sparsity.str(); })};
const OpStat weight_pattern{
    {"weight_pattern", "-", "how the weights were pruned and how the kernel treated the pattern",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult& r) {
      return r.op.weight_pattern + " (" +
             (r.weight_path.empty() ? std::string("not exploited: dense datapath")
                                    : r.weight_path) +
             ")";
    }),
    [](const OpResult& r) { return !r.op.weight_pattern.empty(); }};
const OpStat variant{
    {"variant", "-",
     "the run variant the op belongs to, as asked for (a --prune spec such as "
     "`block:32x32@0.5`, a trace's prune spec, or the run's --sparsity/--block/--unstructured); "
     "the `variants` section totals each",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult& r) { return r.op.variant; }),
    [](const OpResult& r) { return !r.op.variant.empty(); }};
const OpStat pattern{{"pattern", "-",
                      "the pattern the op's weights carry: `dense`, `2:4`, `block:32x32`, "
                      "`block:32x32+2:4`, `unstructured@0.9`, ...",
                      StatTotal::kNone, kOp},
                     computed<OpResult>([](const OpResult& r) { return r.op.pattern(); })};
const OpStat pruning_note{
    {"pruning_note", "-",
     "why pruning left the layer dense, applied part of its pattern, or floored it (the "
     "layer's last block, --min-density); absent when the pattern applied as asked",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult& r) { return r.op.pruning_note; }),
    [](const OpResult& r) { return !r.op.pruning_note.empty(); }};
const OpStat causal{
    {"causal", "-",
     "an attention GEMM under a causal mask: `output` (the scores Q K^T: tiles wholly above "
     "the diagonal are not launched) or `a` (P V: each tile's k-loop stops after its last "
     "row's column); absent otherwise",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult& r) { return std::string(causal_name(r.op.causal)); }),
    [](const OpResult& r) { return r.op.causal != Causal::None; }};
const OpStat synthetic_weights{
    {"synthetic_weights", "0/1",
     "1: a shapes-only model pruned in blocks: its block map comes from seeded "
     "Normal(0, 1/K) weights (--block-seed), not trained ones",
     StatTotal::kNone, kOp},
    computed<OpResult>([](const OpResult&) { return std::int64_t(1); }),
    [](const OpResult& r) { return r.op.synthetic_weights; }};

// --- time and work --------------------------------------------------------------------
const OpStat cycles{
    {"cycles", "core clock cycles",
     "from launch of the GEMM (and its split-K reduction) to its last store reaching the L2",
     StatTotal::kSum, kGpu},
    field(&OpResult::cycles)};
const OpStat seconds{{"seconds", "s",
                      "cycles / the SM clock: gpu.clock_mhz, or power.clock_mhz when a power "
                      "model settles it lower",
                      StatTotal::kSum, kGpu},
                     field(&OpResult::seconds)};
const OpStat flops{{"flops", "operations",
                    "2 per FMA of the dense GEMM, also for sparse ones; a causal attention GEMM "
                    "counts the products its mask keeps",
                    StatTotal::kSum, kGpu},
                   field(&OpResult::flops)};
const OpStat products{
    {"products", "multiplies", "real multiplies (N/M of the dense count when sparse)",
     StatTotal::kSum, kGpu},
    field(&OpResult::products)};
const OpStat tflops{
    {"tflops", "1e12 op/s", "flops / seconds (TOP/s for int8)", StatTotal::kRecomputed, kGpu},
    formula(&OpResult::tflops,
            [](const OpResult& r) { return r.seconds > 0 ? r.flops / r.seconds / 1e12 : 0.0; })};
const OpStat peak_tflops{
    {"peak_tflops", "1e12 op/s",
     "peak of the units that ran it for the dtype at the preset clock (tensor cores; "
     "the CUDA cores' FMA lanes for a CSR op); the total: the largest",
     StatTotal::kMax, kGpu},
    field(&OpResult::peak_tflops)};
const OpStat fraction_of_peak{
    {"fraction_of_peak", "ratio", "tflops / peak_tflops", StatTotal::kRecomputed, kGpu},
    computed<OpResult>(
        [](const OpResult& r) { return r.peak_tflops > 0 ? r.tflops / r.peak_tflops : 0.0; })};
const OpStat limiter{
    {"limiter", "-",
     "the most utilised of tensor, smem, l2, dram, l2_link, cuda_cores; `latency` when none "
     "is at least half busy",
     StatTotal::kRecomputed, kGpu},
    formula(&OpResult::limiter, pick_limiter)};

// --- utilisation ------------------------------------------------------------------------
const OpStat util_tensor{
    {"utilization.tensor", "0..1",
     "busy fraction of the tensor pipes over the op's cycles (occupied: issuing, or reading and "
     "writing register operands where a register operand path holds them longer)",
     StatTotal::kWeightedMean, kGpu},
    field(&OpResult::util_tensor)};
const OpStat util_smem{
    {"utilization.smem", "0..1", "busy fraction of shared memory", StatTotal::kWeightedMean, kGpu},
    field(&OpResult::util_smem)};
const OpStat util_l2{
    {"utilization.l2", "0..1", "busy fraction of the L2 slices", StatTotal::kWeightedMean, kGpu},
    field(&OpResult::util_l2)};
const OpStat util_dram{
    {"utilization.dram", "0..1", "busy fraction of the DRAM channels at their sustained rate",
     StatTotal::kWeightedMean, kGpu},
    field(&OpResult::util_dram)};
const OpStat util_l2_link{{"utilization.l2_link", "0..1", "busy fraction of the SM<->L2 links",
                           StatTotal::kWeightedMean, kGpu},
                          field(&OpResult::util_l2_link)};
const OpStat util_cuda{
    {"utilization.cuda_cores", "0..1",
     "busy fraction of the FP32 pipes (CUDA cores); written for ops on the CUDA cores and "
     "totals that include one",
     StatTotal::kWeightedMean, kGpu},
    field(&OpResult::util_cuda),
    [](const OpResult& r) { return r.on_cuda_cores || r.util_cuda > 0; }};
const OpStat l1_hit_rate{
    {"l1_hit_rate", "0..1", "L1 sector hits of the CUDA-core kernel's activation gathers",
     StatTotal::kNone, kGpu},
    field(&OpResult::l1_hit_rate),
    [](const OpResult& r) { return r.on_cuda_cores; }};

// --- memory ---------------------------------------------------------------------------
const OpStat l2_read_hit_rate{
    {"l2_read_hit_rate", "0..1", "read sectors that hit in the L2", StatTotal::kWeightedMean, kGpu},
    field(&OpResult::l2_read_hit_rate)};
const OpStat dram_read_bytes{{"dram_read_bytes", "bytes", "DRAM reads", StatTotal::kSum, kGpu},
                             field(&OpResult::dram_read_bytes)};
const OpStat dram_write_bytes{
    {"dram_write_bytes", "bytes", "DRAM writes (dirty-line write-backs)", StatTotal::kSum, kGpu},
    field(&OpResult::dram_write_bytes)};
const OpStat dram_gbps{
    {"dram_gbps", "1e9 B/s", "DRAM traffic (reads + writes) / seconds", StatTotal::kRecomputed,
     kGpu},
    formula(&OpResult::dram_gbps, [](const OpResult& r) {
      return r.seconds > 0 ? (r.dram_read_bytes + r.dram_write_bytes) / r.seconds / 1e9 : 0.0;
    })};

// --- tensor-pipe time by cause (StallCounters) -------------------------------------------
const OpStat pipe_busy{
    {"stall_pipe_cycles.busy", "pipe-cycles",
     "tensor pipes issuing (or on their register operand path), summed over all sub-core pipes",
     StatTotal::kSum, kGpu},
    field(&OpResult::pipe_busy)};

// One stat per StallCause (a test checks that none is missing).
template <StallCause C>
StatAccess<OpResult> stall() {
  return counter<OpResult>([](auto& r) -> auto& { return r.stalls.cycles[int(C)]; });
}
StatInfo stall_info(StallCause c, std::string description) {
  return {std::string("stall_pipe_cycles.") + to_string(c), "pipe-cycles", std::move(description),
          StatTotal::kSum, kGpu};
}
const OpStat stall_global{
    stall_info(StallCause::Global,
               "tensor pipes idle waiting on global memory (a k-tile's cp.async)"),
    stall<StallCause::Global>()};
const OpStat stall_operand{
    stall_info(StallCause::Operand, "idle waiting on shared memory (ldmatrix fragments)"),
    stall<StallCause::Operand>()};
const OpStat stall_dependency{
    stall_info(StallCause::Dependency, "idle on an accumulator dependency"),
    stall<StallCause::Dependency>()};
const OpStat stall_sync{stall_info(StallCause::Sync, "idle at the k-tile barrier"),
                        stall<StallCause::Sync>()};
const OpStat stall_cta{stall_info(StallCause::CtaBoundary, "idle in a CTA's prologue or epilogue"),
                       stall<StallCause::CtaBoundary>()};
const OpStat no_work{
    {"stall_pipe_cycles.no_work", "pipe-cycles",
     "idle with no CTA (the tail of the last wave): cycles x pipes - busy - stalls",
     StatTotal::kRecomputed, kGpu},
    computed<OpResult>([](const OpResult& r) {
      return std::max(0.0, r.pipe_cycles - r.pipe_busy - r.stalls.total());
    })};

// --- how it ran -------------------------------------------------------------------------
const OpStat instruction{
    {"instruction", "-", "the instruction the kernel's threads issue, e.g. `fp16 m16n8k32 2:4`",
     StatTotal::kNone, kKernel},
    field(&OpResult::instruction)};
const OpStat map_cta_m{{"mapping.cta_m", "elements", "CTA tile rows", StatTotal::kNone, kKernel},
                       computed<OpResult>([](const OpResult& r) { return r.mapping.cta_m; })};
const OpStat map_cta_n{{"mapping.cta_n", "elements", "CTA tile columns", StatTotal::kNone, kKernel},
                       computed<OpResult>([](const OpResult& r) { return r.mapping.cta_n; })};
const OpStat map_cta_k{
    {"mapping.cta_k", "elements", "CTA tile depth (k-tile)", StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.cta_k; })};
const OpStat map_warp_m{{"mapping.warp_m", "elements", "warp tile rows", StatTotal::kNone, kKernel},
                        computed<OpResult>([](const OpResult& r) { return r.mapping.warp_m; })};
const OpStat map_warp_n{
    {"mapping.warp_n", "elements", "warp tile columns", StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.warp_n; })};
const OpStat map_stages{
    {"mapping.stages", "stages", "cp.async pipeline depth", StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.stages; })};
const OpStat map_swizzle{{"mapping.swizzle", "tiles", "N-tiles launched together for L2 locality",
                          StatTotal::kNone, kKernel},
                         computed<OpResult>([](const OpResult& r) { return r.mapping.swizzle; })};
const OpStat map_split_k{
    {"mapping.split_k", "slices", "K slices reduced by a second kernel", StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.split_k; })};
const OpStat map_layout{
    {"mapping.smem_layout", "-", "shared-memory tile layout (swizzled, padded, naive)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return std::string(to_string(r.mapping.layout)); })};
// Warp-specialized (sm90) kernels only: their schedule and cluster.
bool warp_specialized(const OpResult& r) { return !r.mapping.schedule.empty(); }
const OpStat map_schedule{
    {"mapping.schedule", "-",
     "warp-specialized kernels: cooperative (two consumer warpgroups share each tile) or "
     "pingpong (they alternate tiles)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.schedule; }),
    warp_specialized};
const OpStat map_cluster_m{
    {"mapping.cluster_m", "CTAs",
     "warp-specialized kernels: CTAs along M in a cluster, sharing each B tile by TMA multicast",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.cluster_m; }),
    warp_specialized};
const OpStat map_cluster_n{
    {"mapping.cluster_n", "CTAs",
     "warp-specialized kernels: CTAs along N in a cluster, sharing each A tile by TMA multicast",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.cluster_n; }),
    warp_specialized};
// Multistage mma.sync / mma.sp kernels only: how their warps buffer B fragments, the order
// they issue their mma in and where they sync.
bool multistage_mma(const OpResult& r) { return r.mapping.b_fragment_buffers > 0; }
const OpStat map_b_fragment_buffers{
    {"mapping.b_fragment_buffers", "buffers",
     "register buffers per warp for B fragments: 2 loads the next k-sub's B while this one's "
     "mma issue, 1 only after the last mma that read it",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.b_fragment_buffers; }),
    multistage_mma};
const OpStat map_mma_order{
    {"mapping.mma_order", "-",
     "the order a warp issues its warp tile's mma: rows, serpentine or columns (which fragments "
     "the register operand path reads)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.mma_order; }),
    multistage_mma};
const OpStat map_barrier_point{
    {"mapping.barrier_point", "-",
     "where the warps wait for the next stage and sync: last_ksub (CUTLASS's sm80) or ktile_end "
     "(the validation harness's kernels)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.barrier_point; }),
    multistage_mma};
const OpStat map_epilogue_staging{
    {"mapping.epilogue_staging", "-",
     "the type the epilogue stages the output tile in through shared memory: accumulator "
     "(CUTLASS's sm80) or output (the validation harness's kernels)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.epilogue_staging; }),
    multistage_mma};
const OpStat map_ktile_prelude{
    {"mapping.ktile_prelude_instructions", "instructions",
     "warp instructions each warp issues at the top of a k-tile before its first fragment load, "
     "besides its copies', on its sub-core's issue port (0: none modelled)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.loop.ktile_prelude; }),
    multistage_mma};
const OpStat map_ktile_copy{
    {"mapping.ktile_copy_instructions", "instructions",
     "of a k-tile's top, the instructions that issue the next stage's copies (skipped by the "
     "k-tiles that copy nothing)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.loop.ktile_copy_instructions; }),
    multistage_mma};
const OpStat map_ksub_loop{
    {"mapping.ksub_loop", "-",
     "unrolled (a k-sub's fragments load under the previous k-sub's mma) or rolled (after them)",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) {
      return r.mapping.loop.rolled_ksubs
                 ? "rolled, " + std::to_string(r.mapping.loop.ksub_prelude) +
                       " instructions at its top"
                 : std::string("unrolled");
    }),
    multistage_mma};
const OpStat map_chosen_by{
    {"mapping.chosen_by", "-", "the config, or the heuristic's choice and its estimate",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.mapping.chosen_by; })};
const OpStat ctas_per_sm{
    {"occupancy.ctas_per_sm", "CTAs", "resident CTAs per SM", StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.occupancy.ctas_per_sm; })};
const OpStat limited_by{
    {"occupancy.limited_by", "-", "what limits residency: smem, registers, threads or ctas",
     StatTotal::kNone, kKernel},
    computed<OpResult>([](const OpResult& r) { return r.occupancy.limited_by; })};
const OpStat ctas{{"ctas", "CTAs", "CTAs of the main launch", StatTotal::kNone, kKernel},
                  field(&OpResult::ctas)};
const OpStat waves{{"waves", "waves", "ctas / (SMs x CTAs per SM)", StatTotal::kNone, kGpu},
                   field(&OpResult::waves)};

}  // namespace

}  // namespace stcsim
