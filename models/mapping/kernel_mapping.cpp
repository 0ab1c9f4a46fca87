#include "models/mapping/kernel_mapping.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "models/mapping/cutlass_sm80_tiles.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

const char* to_string(SmemLayout l) {
  switch (l) {
    case SmemLayout::Swizzled:
      return "swizzled";
    case SmemLayout::Padded:
      return "padded";
    case SmemLayout::Naive:
      return "naive";
  }
  return "?";
}

std::int64_t KernelMapping::smem_bytes(const MmaKind& k) const {
  const double pad = layout == SmemLayout::Padded ? 16 : 0;
  const double a_row = cta_k * (k.a_bytes_per_k() + k.meta_bytes_per_k()) + pad;
  const double b_row = double(cta_k) * input_bytes(k.dtype) + pad;
  return std::int64_t(stages * (cta_m * a_row + cta_n * b_row));
}

int KernelMapping::regs_per_thread(const MmaKind& k) const {
  const auto s = k.shape();
  const int widen = k.sparsity.dense() ? 1 : k.sparsity.m / k.sparsity.n;  // B covers M/N x K
  const int acc = warp_m * warp_n / 32;  // one 32-bit accumulator per element
  // Double-buffered A (4 registers per m16 tile), B (2 per n8 tile, widened for sparse)
  // in b_fragment_buffers buffers (2 unless resolved otherwise), one metadata register
  // per m16 tile.
  const int b_buffers = b_fragment_buffers > 0 ? b_fragment_buffers : 2;
  const int frag = 2 * (warp_m / s.m) * 4 + b_buffers * (warp_n / s.n) * 2 * widen +
                   (k.sparsity.dense() ? 0 : warp_m / s.m);
  return acc + frag + 16;  // addressing, loop, predicates
}

int cutlass_b_fragment_buffers(int warp_m, int warp_n, const MmaKind& k) {
  // Every instruction here accumulates in 32 bits (f32, or s32 for int8), and its
  // operands are the instruction's own types, so only sparsity and the tile decide.
  return !k.sparsity.dense() && warp_m >= 64 && warp_n >= 64 ? 1 : 2;
}

int staged_output_bytes(const KernelMapping& m, Dtype d) {
  return m.split_k > 1 || m.epilogue_staging == "accumulator" ? 4 : output_bytes(d);
}

int staging_store_lane_bytes_of(const KernelMapping& m, Dtype d) {
  return m.epilogue_staging == "accumulator" ? 8 : staged_output_bytes(m, d);
}

std::string KernelMapping::describe() const {
  std::ostringstream os;
  if (!schedule.empty()) {
    os << cta_m << "x" << cta_n << "x" << cta_k << " warp-specialized " << schedule << " cluster "
       << cluster_m << "x" << cluster_n << " stages " << stages << " swizzle " << swizzle;
    return os.str();
  }
  os << cta_m << "x" << cta_n << "x" << cta_k << " warp " << warp_m << "x" << warp_n << " stages "
     << stages << " swizzle " << swizzle << " split_k " << split_k << " smem " << to_string(layout);
  return os.str();
}

Occupancy occupancy(const KernelMapping& m, const SmSpec& sm, const MmaKind& d) {
  struct Lim {
    int n;
    const char* why;
  };
  const int regs = std::max(1, m.regs_per_thread(d)) * m.threads();
  Lim lims[] = {{int(sm.smem_bytes / std::max<std::int64_t>(1, m.smem_bytes(d))), "smem"},
                {sm.registers / std::max(1, regs), "registers"},
                {sm.max_threads / std::max(1, m.threads()), "threads"},
                {sm.max_ctas, "ctas"}};
  Lim best = lims[0];
  for (auto& l : lims)
    if (l.n < best.n) best = l;
  return {best.n, best.why};
}

std::vector<ParamDecl> MappingRequest::params() {
  const MappingRequest d;  // defaults: the struct's initialisers (kernel_mapping.h)
  return {
      int_param("cta_m", "elements", d.cta_m, 0, 1024, "CTA tile M (0: chosen by the heuristic)"),
      int_param("cta_n", "elements", d.cta_n, 0, 1024, "CTA tile N (0: chosen)"),
      int_param("cta_k", "elements", d.cta_k, 0, 1024, "CTA tile K per stage (0: chosen)"),
      int_param("warp_m", "elements", d.warp_m, 0, 256, "warp tile M (0: chosen)"),
      int_param("warp_n", "elements", d.warp_n, 0, 256, "warp tile N (0: chosen)"),
      int_param("stages", "stages", d.stages, 0, 16,
                "cp.async pipeline stages (0: as many as fit, up to the candidate's)"),
      int_param("split_k", "slices", d.split_k, 0, 64, "split-K slices (0: chosen)"),
      int_param("swizzle", "tiles", d.swizzle, 0, 64,
                "rasterization: N-tiles launched together (0: chosen)"),
      string_param("smem_layout", std::string(to_string(d.layout)), {"swizzled", "padded", "naive"},
                   "shared-memory tile layout: XOR-swizzled, 16-byte padded rows, or plain"),
      string_param(
          "kernel", d.kernel, {},
          "the kernel that runs each GEMM: auto (by the weights' pattern) or a registered kernel "
          "(`stcsim components --kind kernel`)"),
      string_param(
          "unstructured_kernel", d.unstructured_kernel, {"block_sparse_gemm", "csr_spmm"},
          "with kernel auto, for unstructured (1x1-block) weights without N:M: the tensor-core "
          "block kernel or the CSR SpMM on CUDA cores"),
      string_param("schedule", d.schedule, {"auto", "cooperative", "pingpong"},
                   "warp-specialized kernels (sm90): two consumer warpgroups sharing each tile "
                   "(cooperative) or alternating tiles (pingpong); auto: chosen"),
      string_param("policy", d.policy, {"chooser", "cutlass_sm80", "cutlass_sm90", "exhaustive"},
                   "candidate tiles of the kernels' chooser: the documented set (chooser), the "
                   "ones CUTLASS's generator instantiates for sm80 (cutlass_sm80: multistage "
                   "kernels) or for sm90 (cutlass_sm90: tile, cluster and schedule of "
                   "warp_specialized_gemm; an error on a GPU without wgmma and TMA); the "
                   "kernel's estimate picks among them, except under exhaustive: the documented "
                   "set's exhaustive_top best by the estimate are each simulated and the "
                   "fastest kept (multistage and block-sparse kernels; needs --l2 flush; "
                   "docs/mapping.md)"),
      int_param("exhaustive_top", "candidates", d.exhaustive_top, 1, 32,
                "mapping.policy exhaustive: how many of the estimate's best candidates are "
                "simulated per GEMM (each a full simulation of the op)"),
      int_param(
          "cluster_m", "CTAs", d.cluster_m, 0, 4,
          "warp-specialized kernels (sm90): CTAs of a cluster along M, which share each B tile by "
          "TMA multicast (1, 2 or 4; 0: chosen)"),
      int_param(
          "cluster_n", "CTAs", d.cluster_n, 0, 4,
          "warp-specialized kernels (sm90): CTAs of a cluster along N, which share each A tile by "
          "TMA multicast (1, 2 or 4; 0: chosen: 1 under the chooser, CUTLASS's under "
          "cutlass_sm90)"),
      int_param("b_fragment_buffers", "buffers", d.b_fragment_buffers, 0, 2,
                "mma.sync / mma.sp mainloops: register buffers per warp for B fragments; 2 loads "
                "the next k-sub's B while this one's mma issue, 1 only after the last mma that "
                "read it (0: as CUTLASS's sm80 mainloops: 1 for sparse warp tiles of 64x64 and "
                "up, else 2; docs/mapping.md)"),
      string_param("mma_order", d.mma_order, {"rows", "serpentine", "columns"},
                   "mma.sync / mma.sp mainloops: the order a warp issues its warp tile's mma: "
                   "rows (A fragment reused along a row of tiles: the harness's dense kernel), "
                   "serpentine (rows, every other one backwards, B also reused at the turns: "
                   "CUTLASS's sm80 warp mma) or columns (B reused down a column: the harness's "
                   "2:4 kernel, validation/cuda/sp24_kernel.cuh); it sets which fragments the "
                   "register operand path reads"),
      string_param("barrier_point", d.barrier_point, {"last_ksub", "ktile_end"},
                   "mma.sync / mma.sp mainloops: where the warps wait for the next stage and "
                   "sync: last_ksub (once every warp has begun its last k-sub, the next k-tile's "
                   "first fragments loading under its mma: CUTLASS's sm80 mainloops) or ktile_end "
                   "(after each warp's last mma of the k-tile, the first fragments after it: the "
                   "validation harness's kernels)"),
      string_param("epilogue_staging", d.epilogue_staging, {"accumulator", "output"},
                   "mma.sync / mma.sp kernels: the type the epilogue stages the output tile in "
                   "through shared memory: accumulator (fp32 or int32, converted after it is "
                   "read back: CUTLASS's sm80 epilogues) or output (the output dtype: the "
                   "validation harness's kernels); twice the shared-memory bytes for an fp16 "
                   "output under accumulator"),
      int_param("ktile_prelude_instructions", "instructions", d.loop.ktile_prelude, 0, 100000,
                "mma.sync / mma.sp mainloops: warp instructions each warp issues at the top of "
                "every k-tile, after its barrier, before its first fragment load, besides the "
                "copies' (the wait and barrier, the fragment addresses), on its sub-core's "
                "issue port (sm.warp_issue_per_cycle); with this or ktile_copy_instructions "
                "nonzero the k-tile's cp.async bytes take the shared-memory port ahead of its "
                "fragment reads (program order); 0 and 0: CUTLASS's order, its copies spread "
                "between the k-subs behind each one's reads. The harness's kernels' counts: "
                "scripts/count_harness_instructions.py"),
      int_param("ktile_copy_instructions", "instructions", d.loop.ktile_copy_instructions, 0,
                100000,
                "mma.sync / mma.sp mainloops: of a k-tile's top, the instructions that issue "
                "the next stage's cp.async and their addresses, on the issue port too; a "
                "k-tile that copies nothing (the last S-1) skips them"),
      string_param("ksub_loop", d.loop.rolled_ksubs ? "rolled" : "unrolled", {"unrolled", "rolled"},
                   "mma.sync / mma.sp mainloops: unrolled (each k-sub's fragments load under "
                   "the previous k-sub's mma) or rolled (`#pragma unroll 1`: only after the "
                   "warp's last mma of the previous k-sub: the harness's 2:4 kernel)"),
      int_param("ksub_prelude_instructions", "instructions", d.loop.ksub_prelude, 0, 100000,
                "with ksub_loop rolled: warp instructions at the top of each k-sub before its "
                "first fragment load, on the sub-core's issue port"),
      int_param("ktile_prelude_cycles", "cycles", d.loop.ktile_prelude_cycles, 0, 1000000,
                "the k-tile top's instructions besides the copies' as one warp alone issues "
                "them: the sum of their SASS stall counts (scripts/sass_schedule.py); they "
                "still take ktile_prelude_instructions slots on the issue port; 0: one cycle "
                "an instruction"),
      int_param("ktile_copy_cycles", "cycles", d.loop.ktile_copy_cycles, 0, 1000000,
                "the same for the copies' instructions (ktile_copy_instructions)"),
      int_param("ksub_prelude_cycles", "cycles", d.loop.ksub_prelude_cycles, 0, 1000000,
                "the same for a rolled k-sub loop's top and back edge "
                "(ksub_prelude_instructions)"),
      int_param("ksub_rest_from", "mma", d.loop.ksub_rest_from, 0, 100000,
                "with ksub_loop rolled: the warp's mma from this index on (in its issue "
                "order) wait for fragments it loads after its first mma (ptxas's order in the "
                "harness's 2:4 kernel: the first column's B with A, the others after that "
                "column's mma); 0: all load at the k-sub's top"),
      int_param("ksub_rest_gap", "cycles", d.loop.ksub_rest_gap, 0, 100000,
                "with ksub_rest_from: the cycles from the warp's first mma of the k-sub to "
                "the issue of the load those later mma wait on (SASS stall counts)"),
      string_param("csr_gather_loop", d.csr_gather_loop, {"staged", "dependent"},
                   "the CSR kernel's loop over a stage's nonzeros: staged (Sputnik: the stage's "
                   "activation rows gathered into registers together, then the FMAs) or "
                   "dependent (one gather in flight per warp: each waits for the shared-memory "
                   "load of its column index and the previous gather's use; the validation "
                   "harness's kernel; docs/block_sparse.md)"),
  };
}

MappingRequest MappingRequest::from(const ParamSet& p) {
  MappingRequest r;
  r.cta_m = int(p.get_int("cta_m"));
  r.cta_n = int(p.get_int("cta_n"));
  r.cta_k = int(p.get_int("cta_k"));
  r.warp_m = int(p.get_int("warp_m"));
  r.warp_n = int(p.get_int("warp_n"));
  r.stages = int(p.get_int("stages"));
  r.split_k = int(p.get_int("split_k"));
  r.swizzle = int(p.get_int("swizzle"));
  const auto& l = p.get_string("smem_layout");
  r.layout = l == "padded"  ? SmemLayout::Padded
             : l == "naive" ? SmemLayout::Naive
                            : SmemLayout::Swizzled;
  r.kernel = p.get_string("kernel");
  r.unstructured_kernel = p.get_string("unstructured_kernel");
  r.schedule = p.get_string("schedule");
  r.cluster_m = int(p.get_int("cluster_m"));
  r.cluster_n = int(p.get_int("cluster_n"));
  r.policy = p.get_string("policy");
  r.exhaustive_top = int(p.get_int("exhaustive_top"));
  r.b_fragment_buffers = int(p.get_int("b_fragment_buffers"));
  r.csr_gather_loop = p.get_string("csr_gather_loop");
  r.mma_order = p.get_string("mma_order");
  r.barrier_point = p.get_string("barrier_point");
  r.epilogue_staging = p.get_string("epilogue_staging");
  r.loop.ktile_prelude = int(p.get_int("ktile_prelude_instructions"));
  r.loop.ktile_copy_instructions = int(p.get_int("ktile_copy_instructions"));
  r.loop.rolled_ksubs = p.get_string("ksub_loop") == "rolled";
  r.loop.ksub_prelude = int(p.get_int("ksub_prelude_instructions"));
  r.loop.ktile_prelude_cycles = int(p.get_int("ktile_prelude_cycles"));
  r.loop.ktile_copy_cycles = int(p.get_int("ktile_copy_cycles"));
  r.loop.ksub_prelude_cycles = int(p.get_int("ksub_prelude_cycles"));
  r.loop.ksub_rest_from = int(p.get_int("ksub_rest_from"));
  r.loop.ksub_rest_gap = int(p.get_int("ksub_rest_gap"));
  return r;
}

std::string LoopInstructions::key() const {
  return std::to_string(ktile_prelude) + "+" + std::to_string(ktile_copy_instructions) +
         (rolled_ksubs ? "r" : "u") + std::to_string(ksub_prelude) + "c" +
         std::to_string(ktile_prelude_cycles) + "+" + std::to_string(ktile_copy_cycles) + "+" +
         std::to_string(ksub_prelude_cycles) + "g" + std::to_string(ksub_rest_from) + "+" +
         std::to_string(ksub_rest_gap);
}

std::vector<KernelMapping> mapping_candidates(Dtype d) {
  // CTA MxNxK(fp16 elements), warp MxN, stages: CUTLASS's sm80 multistage defaults plus
  // narrow tiles for skinny (GEMV-like) problems.
  struct C {
    int m, n, k, wm, wn, st;
  };
  const C table[] = {
      {256, 128, 64, 64, 64, 3}, {128, 256, 64, 64, 64, 3}, {128, 128, 64, 64, 64, 4},
      {128, 128, 32, 64, 64, 5}, {128, 64, 64, 64, 32, 4},  {64, 128, 64, 32, 64, 4},
      {64, 64, 64, 32, 32, 6},   {128, 32, 64, 32, 32, 4},  {64, 32, 128, 32, 16, 4},
      {128, 16, 128, 32, 16, 4}, {64, 16, 128, 16, 16, 6},  {128, 8, 128, 32, 8, 4},
      {64, 16, 64, 16, 16, 4},   {64, 8, 128, 16, 8, 3},    {16, 128, 128, 16, 32, 4},
      {16, 64, 128, 16, 16, 4}};
  const int kscale = 2;  // table K is for 2-byte inputs
  std::vector<KernelMapping> out;
  for (const auto& c : table) {
    KernelMapping m;
    m.cta_m = c.m;
    m.cta_n = c.n;
    m.warp_m = c.wm;
    m.warp_n = c.wn;
    m.stages = c.st;
    m.cta_k = c.k * kscale / input_bytes(d);
    m.chosen_by = "heuristic";
    out.push_back(m);
  }
  return out;
}

void validate_mapping(const KernelMapping& m, const SmSpec& sm, const MmaKind& d) {
  const auto s = d.shape();
  auto bad = [](const std::string& key, const std::string& msg) {
    throw InputError("mapping." + key + ": " + msg);
  };
  // The harness's kernel races without its barrier unless nothing is copied in the loop.
  if (m.mainloop_parts > kMainloopAll ||
      ((m.mainloop_parts & kMainloopCopy) && !(m.mainloop_parts & kMainloopBarrier)))
    throw InputError("mainloop parts " + std::to_string(m.mainloop_parts) +
                     ": expected MainloopPart bits (copy 1, barrier 2, fragments 4, mma 8), "
                     "the copies only with the barrier");
  if (m.warp_m <= 0 || m.warp_m % s.m)
    bad("warp_m", "must be a positive multiple of " + std::to_string(s.m) + " (mma M)");
  if (m.warp_n <= 0 || m.warp_n % s.n)
    bad("warp_n", "must be a positive multiple of " + std::to_string(s.n) + " (mma N)");
  if (m.cta_m <= 0 || m.cta_m % m.warp_m) bad("cta_m", "must be a positive multiple of warp_m");
  if (m.cta_n <= 0 || m.cta_n % m.warp_n) bad("cta_n", "must be a positive multiple of warp_n");
  if (m.cta_k <= 0 || m.cta_k % s.k)
    bad("cta_k",
        "must be a positive multiple of " + std::to_string(s.k) + " (mma K for " + d.str() + ")");
  if (m.stages < 2) bad("stages", "must be at least 2 (one stage computing while one loads)");
  if (m.threads() > 1024)
    bad("warp_m", "CTA of " + std::to_string(m.threads()) + " threads exceeds 1024");
  if (m.smem_bytes(d) > sm.max_smem_per_cta_bytes)
    bad("stages", std::to_string(m.smem_bytes(d)) + " bytes of shared memory exceed the " +
                      std::to_string(sm.max_smem_per_cta_bytes) + " a CTA may use");
  if (m.regs_per_thread(d) > sm.max_regs_per_thread)
    bad("warp_m", "warp tile needs ~" + std::to_string(m.regs_per_thread(d)) +
                      " registers per thread (limit " + std::to_string(sm.max_regs_per_thread) +
                      ")");
}

double estimate_cycles(const GemmOp& op, const ChooserHardware& hw, const KernelMapping& m) {
  const MmaKind kind = op.kind();
  const Occupancy occ = occupancy(m, hw.sm, kind);
  if (occ.ctas_per_sm < 1) return INFINITY;
  const auto shape = kind.shape();
  const double eb = input_bytes(op.dtype);
  const double a_eb = kind.a_bytes_per_k() + kind.meta_bytes_per_k();
  const double tiles_m = std::ceil(double(op.m) / m.cta_m),
               tiles_n = std::ceil(double(op.n) / m.cta_n);
  const double ctas = tiles_m * tiles_n * m.split_k * op.batch;
  const double ktiles = std::ceil(double(op.k) / m.split_k / m.cta_k);
  const double slots = double(hw.num_sms) * occ.ctas_per_sm;
  const double waves = std::ceil(ctas / slots);
  const double resident = std::min<double>(occ.ctas_per_sm, std::ceil(ctas / hw.num_sms));
  // One CTA's demands on its SM: tensor pipes of the sub-cores its warps occupy...
  const double used_subcores = std::min<double>(hw.sm.sub_cores, m.warps() * resident);
  const double sm_rate = hw.mma_fma_per_cycle_per_sm * used_subcores / hw.sm.sub_cores;
  const double compute = double(m.cta_m) * m.cta_n * ktiles * m.cta_k / sm_rate * resident;
  // ...shared-memory bandwidth (every warp reads its A and B fragments; stages fill)...
  const double ksubs = double(m.cta_k) / shape.k;
  const double frag_bytes = double(m.warps()) * ksubs * (m.warp_m * a_eb + m.warp_n * eb) * shape.k;
  // Loads are clipped to the problem: a tile wider than M, N or K moves only the rows
  // and columns that exist (the compute is not clipped: the tensor cores run whole tiles).
  const double stage_bytes =
      (std::min<double>(m.cta_m, op.m) * a_eb + std::min<double>(m.cta_n, op.n) * eb) *
      std::min<double>(m.cta_k, op.k);
  const double smem = ktiles * (frag_bytes + stage_bytes) / hw.smem_bytes_per_cycle * resident;
  // ...and latency: stages-1 loads in flight cover one memory round trip.
  const double latency = hw.dram_latency_cycles * (1.0 + ktiles / std::max(1, m.stages - 1));
  const double per_wave = std::max({compute, smem, latency});
  // The whole grid's traffic through the L2 and DRAM.
  const double l2_bytes = ctas * ktiles * stage_bytes;
  const double dram_bytes =
      kernel_min_bytes(op) + (m.split_k > 1 ? 8.0 * m.split_k * op.m * op.n : 0.0);
  const double mem =
      std::max(l2_bytes / hw.l2_bytes_per_cycle, dram_bytes / hw.dram_bytes_per_cycle);
  const double sm_side = waves * per_wave;
  // Compute and memory overlap imperfectly (half of the smaller is exposed); a split-K
  // reduction kernel starts only when the GEMM kernel has drained.
  const double reduction = m.split_k > 1 ? 2.0 * hw.dram_latency_cycles : 0.0;
  return std::max(sm_side, mem) + 0.5 * std::min(sm_side, mem) + reduction;
}

std::vector<std::int64_t> panel_kept_k(const BlockMap& map, std::int64_t m, int batch,
                                       std::int64_t k, int cta_m) {
  const std::int64_t tiles_m = (m + cta_m - 1) / cta_m;
  std::vector<std::int64_t> out;
  out.reserve(std::size_t(tiles_m * batch));
  std::vector<int> uni;
  for (int b = 0; b < batch; ++b)
    for (std::int64_t tm = 0; tm < tiles_m; ++tm) {
      const std::int64_t g0 = b * m + tm * cta_m, g1 = std::min(b * m + m, g0 + cta_m);
      map.union_columns(g0, g1, uni);
      std::int64_t kept = 0;
      for (int c : uni) kept += std::min<std::int64_t>(map.c, k - std::int64_t(c) * map.c);
      out.push_back(kept);
    }
  return out;
}

namespace {
// The block-skipping kernel's estimate: the dense estimate of a problem whose K is the
// CTAs' kept K (whole k-tiles), between the mean (many waves even it out) and the
// largest panel (one wave waits for it).
// `kept_by_cta_m` caches panel_kept_k per tile height: the candidates share few heights.
double estimate_block_cycles(const GemmOp& op, const ChooserHardware& hw, const KernelMapping& m,
                             std::map<int, std::vector<std::int64_t>>& kept_by_cta_m) {
  const Occupancy occ = occupancy(m, hw.sm, op.kind());
  if (occ.ctas_per_sm < 1) return INFINITY;
  auto it = kept_by_cta_m.find(m.cta_m);
  if (it == kept_by_cta_m.end())
    it = kept_by_cta_m.emplace(m.cta_m, panel_kept_k(*op.block_map, op.m, op.batch, op.k, m.cta_m))
             .first;
  const auto& kept = it->second;
  double sum = 0, mx = 0;
  for (std::int64_t v : kept) {
    const double padded = std::ceil(double(v) / m.cta_k) * m.cta_k;
    sum += padded;
    mx = std::max(mx, padded);
  }
  const double mean = kept.empty() ? 0 : sum / double(kept.size());
  const double ctas = double(kept.size()) * std::ceil(double(op.n) / m.cta_n);
  const double waves = std::max(1.0, std::ceil(ctas / (double(hw.num_sms) * occ.ctas_per_sm)));
  GemmOp eff = op;
  eff.block_map = nullptr;
  eff.k = std::max<std::int64_t>(m.cta_k, std::llround(mean + (mx - mean) / waves));
  return estimate_cycles(eff, hw, m);
}
}  // namespace

KernelMapping csr_mapping(int cols) {
  KernelMapping m;
  m.cta_m = 4;
  m.cta_n = cols;
  m.cta_k = 32;
  m.warp_m = 1;
  m.warp_n = cols;
  m.stages = 2;
  m.swizzle = 1;
  m.chosen_by = "csr row-split (Sputnik-style): 4 rows x " + std::to_string(cols) +
                " columns per CTA, 32 nonzeros per stage";
  return m;
}

static constexpr double kSwitchMargin = 0.9;

TileCost block_tile_cost(const GemmOp& op, const ChooserHardware& hw) {
  // The candidates share few tile heights: their panels' kept K is computed once each.
  auto kept = std::make_shared<std::map<int, std::vector<std::int64_t>>>();
  return {
      [op, hw, kept](const KernelMapping& m) { return estimate_block_cycles(op, hw, m, *kept); },
      false};
}

namespace {

struct ScoredMapping {
  KernelMapping map;
  double cycles;  // the kernel's estimate
};

// Every candidate of `req` (the user's tile, or the policy's set) that fits, with each
// split-K it may take, scored by the kernel's estimate, in candidate order.
std::vector<ScoredMapping> score_mappings(const GemmOp& op, const ChooserHardware& hw,
                                          const MappingRequest& req, const TileCost& cost,
                                          bool tile_given) {
  std::vector<KernelMapping> cands;
  if (tile_given) {
    if (!(req.cta_m && req.cta_n && req.cta_k && req.warp_m && req.warp_n))
      throw InputError("mapping: give all of cta_m, cta_n, cta_k, warp_m, warp_n, or none of them");
    KernelMapping m;
    m.cta_m = req.cta_m;
    m.cta_n = req.cta_n;
    m.cta_k = req.cta_k;
    m.warp_m = req.warp_m;
    m.warp_n = req.warp_n;
    m.stages = req.stages ? req.stages : 3;
    m.chosen_by = "config";
    cands.push_back(m);
  } else {
    // CUTLASS's sm90 lists are warp-specialized kernels: the kernels that choose here
    // (mma.sync mainloops) refuse the policy before asking (TensorCoreKernel::mapping).
    if (req.policy == "cutlass_sm90")
      throw InputError(
          "mapping.policy cutlass_sm90: CUTLASS's sm90 list holds warp-specialized wgmma "
          "kernels, not mma.sync tiles (use chooser or cutlass_sm80)");
    cands = req.policy == "cutlass_sm80" ? cutlass_sm80_candidates(op.kind())
                                         : mapping_candidates(op.dtype);
  }
  std::vector<ScoredMapping> out;
  for (auto m : cands) {
    m.layout = req.layout;
    m.mainloop_parts = req.mainloop_parts;
    m.mma_order = req.mma_order;
    m.barrier_point = req.barrier_point;
    m.epilogue_staging = req.epilogue_staging;
    m.loop = req.loop;
    m.b_fragment_buffers = req.b_fragment_buffers
                               ? req.b_fragment_buffers
                               : cutlass_b_fragment_buffers(m.warp_m, m.warp_n, op.kind());
    if (req.stages) m.stages = req.stages;
    // Fewer stages when the candidate's do not fit (never below 2).
    if (!req.stages)
      while (m.stages > 2 && m.smem_bytes(op.kind()) > hw.sm.max_smem_per_cta_bytes) --m.stages;
    if (!tile_given) {
      try {
        validate_mapping(m, hw.sm, op.kind());
      } catch (const InputError&) {
        continue;
      }
    } else {
      validate_mapping(m, hw.sm, op.kind());
    }
    const std::vector<int> splits = !cost.split_k ? std::vector<int>{1}
                                    : req.split_k ? std::vector<int>{req.split_k}
                                                  : std::vector<int>{1, 2, 4, 8, 16};
    for (int s : splits) {
      if (s > 1 && double(op.k) / s < 2.0 * m.cta_k) continue;
      m.split_k = s;
      const double tiles_n = std::ceil(double(op.n) / m.cta_n);
      m.swizzle = req.swizzle ? req.swizzle : int(std::min(8.0, tiles_n));
      out.push_back({m, cost.cycles ? cost.cycles(m) : estimate_cycles(op, hw, m)});
    }
  }
  return out;
}

}  // namespace

KernelMapping choose_mapping(const GemmOp& op, const ChooserHardware& hw, const MappingRequest& req,
                             const TileCost& cost) {
  const bool given = req.tile_given();
  KernelMapping best;
  double best_cost = INFINITY;
  for (const ScoredMapping& c : score_mappings(op, hw, req, cost, given)) {
    // The estimate is rough: a later candidate (smaller tile, more splits) must win
    // by a clear margin to displace an earlier one.
    if (c.cycles < best_cost * kSwitchMargin) {
      best_cost = c.cycles;
      best = c.map;
    }
  }
  if (!std::isfinite(best_cost))
    throw InputError("mapping: no candidate fits this SM for " + op.kind().str());
  if (!given) {
    std::ostringstream os;
    os << "heuristic (estimated " << std::llround(best_cost) << " cycles)";
    best.chosen_by = os.str();
  }
  return best;
}

std::vector<KernelMapping> rank_mappings(const GemmOp& op, const ChooserHardware& hw,
                                         const MappingRequest& req, const TileCost& cost, int n) {
  if (req.tile_given()) return {};
  std::vector<ScoredMapping> scored = score_mappings(op, hw, req, cost, false);
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const ScoredMapping& a, const ScoredMapping& b) { return a.cycles < b.cycles; });
  std::vector<KernelMapping> out;
  for (std::size_t i = 0; i < scored.size() && int(out.size()) < n; ++i) {
    if (!std::isfinite(scored[i].cycles)) break;
    std::ostringstream os;
    os << "estimate rank " << i + 1 << " (" << std::llround(scored[i].cycles) << " cycles)";
    scored[i].map.chosen_by = os.str();
    out.push_back(scored[i].map);
  }
  return out;
}

static CatalogEntry mapping_entry{ComponentInfo{
    "mapping", "multistage",
    "cuts a GEMM into CTA and warp tiles with a cp.async multistage mainloop",
    "CUTLASS-style multistage kernel mapping; zeros are chosen by the heuristic (docs/mapping.md)",
    MappingRequest::params(), true}};

}  // namespace stcsim
