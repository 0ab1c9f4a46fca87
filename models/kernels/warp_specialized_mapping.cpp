#include "models/kernels/warp_specialized_mapping.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "models/mapping/cutlass_sm90_tiles.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace {
int dense_ktile(const MmaKind& kind) {
  // 128 bytes of A values per row and stage (the 128-byte swizzle of a TMA box), in
  // dense-K elements: compressed A covers M/N times more K.
  const int k = 128 / input_bytes(kind.dtype);
  return kind.sparsity.dense() ? k : k * kind.sparsity.m / kind.sparsity.n;
}
}  // namespace

WsWork ws_work(const KernelMapping& m, const MmaKind& kind) {
  WsWork w;
  w.wgmma = MmaKind{kind.dtype, kind.sparsity, m.cta_n};
  const auto s = w.wgmma.shape();
  w.wgmma_per_kblock = (m.cta_m / 64) * (m.cta_k / s.k);
  w.operand_bytes = 64.0 * s.k * (kind.a_bytes_per_k() + kind.meta_bytes_per_k()) +
                    double(s.n) * s.k * input_bytes(kind.dtype);
  w.b_tile_bytes = double(m.cta_n) * m.cta_k * input_bytes(kind.dtype);
  w.a_tile_bytes = double(m.cta_m) * m.cta_k * (kind.a_bytes_per_k() + kind.meta_bytes_per_k());
  w.stage_bytes = w.a_tile_bytes + w.b_tile_bytes;
  // CUTLASS's sm90 TMA epilogue stores through subtiles of (up to) 128 x 32 outputs,
  // two buffers deep.
  w.epilogue_smem = 2.0 * std::min(m.cta_m, 128) * 32 * output_bytes(kind.dtype);
  w.boxes_per_stage = kind.sparsity.dense() ? 2 : 3;
  return w;
}

int ws_stages(const KernelMapping& m, const MmaKind& kind, const SmSpec& sm) {
  const WsWork w = ws_work(m, kind);
  const double barriers = 1024;  // full/empty mbarriers, tile scheduler state
  const int st =
      int((double(sm.max_smem_per_cta_bytes) - w.epilogue_smem - barriers) / w.stage_bytes);
  return st >= 2 ? st : 0;
}

double ws_estimate_cycles(const GemmOp& op, const KernelEnv& env, const KernelMapping& m) {
  const MmaKind kind = op.kind();
  const WsWork w = ws_work(m, kind);
  const double tiles =
      std::ceil(double(op.m) / m.cta_m) * std::ceil(double(op.n) / m.cta_n) * op.batch;
  // Split-K: K slices of ceil(k-blocks / split_k) k-blocks, so fewer than split_k when
  // the last would be empty (multistage_cta_order); each tile once per slice.
  const double all_kblocks = std::ceil(double(op.k) / m.cta_k);
  const int splits = int(std::ceil(all_kblocks / std::ceil(all_kblocks / std::max(1, m.split_k))));
  const double units = tiles * splits;
  const double grid = std::min<double>(units, env.num_sms);
  const double per_cta = std::ceil(units / grid);
  const double kblocks = std::ceil(all_kblocks / splits);
  const double tensor = w.wgmma_per_kblock * env.tc.initiation_interval(w.wgmma);
  const double matrix =
      w.wgmma_per_kblock * w.operand_bytes / env.smem.matrix_read_bytes_per_cycle();
  const double fill = w.stage_bytes / env.smem.bytes_per_cycle();
  const double smem = env.smem.matrix_path_is_port() ? matrix + fill : std::max(matrix, fill);
  // A cluster reads each B tile (shared along M) and A tile (along N) from the L2 once;
  // every SM still receives a whole stage.
  const double l2_bytes = w.stage_bytes - w.b_tile_bytes * (m.cluster_m - 1) / m.cluster_m -
                          w.a_tile_bytes * (m.cluster_n - 1) / m.cluster_n;
  const double l2 = std::max(l2_bytes * grid / env.l2_bytes_per_cycle,
                             w.stage_bytes / env.sm.l2_link_bytes_per_cycle);
  const double tile_out = double(m.cta_m) * m.cta_n * output_bytes(kind.dtype);
  const double epilogue =
      m.schedule == "pingpong" ? 0 : 2 * tile_out / env.smem.bytes_per_cycle() + env.l2_hit_latency;
  const double prologue = 2 * env.l2_hit_latency;
  // Split-K: every slice but the last writes the tile's fp32 sum over the SM's link and
  // every slice but the first reads it first, after a lock poll (the slices' average per
  // work unit below); the slices of a tile take these steps one after another, so the
  // last tile's chain adds its s - 1 steps at the end.
  const double partial = double(m.cta_m) * m.cta_n * 4 / env.sm.l2_link_bytes_per_cycle;
  const double step = 2 * partial + 2 * env.l2_hit_latency;
  const double per_unit = (splits - 1) * step / splits;
  const double compute = per_cta * (kblocks * std::max({tensor, smem, l2}) + epilogue + per_unit) +
                         prologue + (splits - 1) * step;
  const double bytes =
      op.batch * (double(op.m) * op.k * (kind.a_bytes_per_k() + kind.meta_bytes_per_k()) +
                  double(op.n) * op.k * input_bytes(kind.dtype) +
                  double(op.m) * op.n * output_bytes(kind.dtype));
  return std::max(compute, bytes / env.dram_bytes_per_cycle);
}

namespace {
// One tile the kernel may run: CTA M x N x K (K 0: dense_ktile), schedule, CTAs of a
// cluster along M, and what to call it in mapping.chosen_by.
struct WsTile {
  int m = 0, n = 0, k = 0;
  std::string schedule;
  int cluster_m = 1, cluster_n = 1;
  std::string label;
};

// Append `t` as a mapping of `op` unless the user's mapping keys exclude it, its M tiles
// do not come in whole clusters, or not even 2 stages fit. `k_is_the_entrys`: the tile's
// K is part of the entry (a CUTLASS list), so mapping.cta_k selects instead of replacing.
void add_if_runnable(const WsTile& t, bool k_is_the_entrys, const GemmOp& op, const KernelEnv& env,
                     std::vector<KernelMapping>& out) {
  const MappingRequest& req = env.request;
  const MmaKind kind = op.kind();
  const std::int64_t tiles_m = (op.m + t.m - 1) / t.m, tiles_n = (op.n + t.n - 1) / t.n;
  // A cluster's CTAs hold one block of tiles in lockstep: the tiles must come in whole
  // clusters, in plain raster order, all of them present and with the same K (a causal
  // product drops tiles above its diagonal or shortens their K).
  if (t.cluster_m * t.cluster_n > 1 && (tiles_m % t.cluster_m || tiles_n % t.cluster_n ||
                                        req.swizzle > 1 || op.causal != Causal::None))
    return;
  if (req.schedule != "auto" && req.schedule != t.schedule) return;
  if ((req.cta_m && req.cta_m != t.m) || (req.cta_n && req.cta_n != t.n)) return;
  if (k_is_the_entrys && req.cta_k && req.cta_k != t.k) return;
  KernelMapping m;
  m.cta_m = t.m;
  m.cta_n = t.n;
  m.cta_k = req.cta_k ? req.cta_k : t.k ? t.k : dense_ktile(kind);
  m.schedule = t.schedule;
  m.warp_m = 16;  // each warp of a consumer warpgroup runs 16 rows of an m64 wgmma
  m.warp_n = t.n;
  m.swizzle = req.swizzle ? req.swizzle : 1;
  m.cluster_m = t.cluster_m;
  m.cluster_n = t.cluster_n;
  const int fit = ws_stages(m, kind, env.sm);
  m.stages = req.stages ? std::min(req.stages, fit) : fit;
  if (m.stages < 2) return;
  m.chosen_by = t.label;
  out.push_back(m);
}
}  // namespace

std::vector<KernelMapping> ws_candidates(const GemmOp& op, const KernelEnv& env) {
  struct C {
    int m, n;
    const char* schedule;
  };
  const C table[] = {{128, 256, "cooperative"}, {256, 128, "cooperative"},
                     {128, 128, "cooperative"}, {128, 64, "cooperative"},
                     {256, 64, "cooperative"},  {64, 256, "pingpong"},
                     {64, 128, "pingpong"},     {64, 64, "pingpong"},
                     {128, 128, "pingpong"},    {128, 64, "pingpong"}};
  const MappingRequest& req = env.request;
  std::vector<KernelMapping> out;
  // Clusters 1x1 and 2x1 unless the mapping names one (any of 1, 2, 4 each way).
  for (const int cn : {1, 2, 4})
    for (const int cm : {1, 2, 4})
      for (const auto& c : table) {
        if (req.cluster_m ? cm != req.cluster_m : cm > 2) continue;
        if (req.cluster_n ? cn != req.cluster_n : cn > 1) continue;
        add_if_runnable({c.m, c.n, 0, c.schedule, cm, cn, "heuristic"}, false, op, env, out);
      }
  return out;
}

int ws_accumulator_regs(const KernelMapping& m) {
  // 32-bit accumulators of the tile, spread over the threads that hold them: both
  // consumer warpgroups (cooperative) or one (pingpong).
  const int threads = m.schedule == "pingpong" ? 128 : 256;
  return m.cta_m * m.cta_n / threads;
}

std::vector<KernelMapping> ws_cutlass_sm90_candidates(const GemmOp& op, const KernelEnv& env) {
  const MappingRequest& req = env.request;
  std::vector<KernelMapping> out;
  for (const CutlassSm90Entry& e : cutlass_sm90_entries(op.kind())) {
    if (req.cluster_m && e.cluster_m != req.cluster_m) continue;
    if (req.cluster_n && e.cluster_n != req.cluster_n) continue;
    const std::size_t before = out.size();
    add_if_runnable({e.cta_m, e.cta_n, e.cta_k, e.schedule, e.cluster_m, e.cluster_n,
                     "cutlass_sm90 " + e.describe()},
                    true, op, env, out);
    // Accumulators beyond the consumers' setmaxnreg budget spill in the real kernel;
    // this one does not model spills, so it does not run such an entry.
    if (out.size() > before && ws_accumulator_regs(out.back()) > kWsConsumerRegs) out.pop_back();
  }
  return out;
}

KernelMapping choose_ws_mapping(const GemmOp& op, const KernelEnv& env) {
  const MmaKind kind = op.kind();
  const MappingRequest& req = env.request;
  const int ksub = dense_mma_shape(kind.dtype).k *
                   (kind.sparsity.dense() ? 1 : kind.sparsity.m / kind.sparsity.n);
  if (req.cta_k && req.cta_k % ksub)
    throw InputError("mapping.cta_k: warp_specialized_gemm needs a multiple of " +
                     std::to_string(ksub) + " (wgmma K for " + kind.str() + ")");
  for (const auto& [key, v] : {std::pair{"cluster_m", req.cluster_m}, {"cluster_n", req.cluster_n}})
    if (v != 0 && v != 1 && v != 2 && v != 4)
      throw InputError(std::string("mapping.") + key + ": " + std::to_string(v) +
                       " CTAs; a warp-specialized cluster spans 1, 2 or 4 along each of M and N "
                       "(0: chosen)");
  if (std::max(1, req.cluster_m) * std::max(1, req.cluster_n) > 8)
    throw InputError("mapping.cluster_m x cluster_n: " + std::to_string(req.cluster_m) + " x " +
                     std::to_string(req.cluster_n) +
                     " CTAs; a cluster holds at most 8 (the portable cluster size on sm90)");
  const bool cutlass = req.policy == "cutlass_sm90";
  if (req.policy == "cutlass_sm80")
    throw InputError(
        "mapping.policy cutlass_sm80 lists mma.sync tiles; warp_specialized_gemm runs wgmma: use "
        "cutlass_sm90 or chooser (or mapping.kernel multistage_gemm for the sm80 tiles)");
  const auto cands = cutlass ? ws_cutlass_sm90_candidates(op, env) : ws_candidates(op, env);
  if (cands.empty() && cutlass)
    throw InputError(
        op.name + " (" + std::to_string(op.m) + "x" + std::to_string(op.n) + "x" +
        std::to_string(op.k) + "): mapping.policy cutlass_sm90: no CUTLASS sm90 entry for " +
        kind.str() + " runs here with cta_m=" + std::to_string(req.cta_m) +
        " cta_n=" + std::to_string(req.cta_n) + " cta_k=" + std::to_string(req.cta_k) +
        " schedule=" + req.schedule + " cluster_m=" + std::to_string(req.cluster_m) +
        " cluster_n=" + std::to_string(req.cluster_n) +
        " (its 2x1x1 clusters need the M tiles in pairs, its 1x2x1 clusters the N tiles, and "
        "both swizzle 1; entries whose accumulators exceed the consumers' registers are left "
        "out; docs/mapping.md): use mapping.policy chooser");
  if (cands.empty())
    throw InputError(
        "mapping: no warp_specialized_gemm tile matches cta_m=" + std::to_string(req.cta_m) +
        " cta_n=" + std::to_string(req.cta_n) + " schedule=" + req.schedule + " cluster_m=" +
        std::to_string(req.cluster_m) + " cluster_n=" + std::to_string(req.cluster_n) +
        " with at least 2 stages in shared memory (tiles: 64/128/256 x 64/128/256; cooperative "
        "needs cta_m >= 128, pingpong cta_m <= 128; a cluster needs the M and N tiles in whole "
        "clusters and swizzle 1)");
  // Each tile with each split-K it may take (CUTLASS's stream-K scheduler in split-K
  // mode): slices of at least two k-blocks, none for causal products.
  std::vector<KernelMapping> split_cands;
  for (const auto& m : cands) {
    const std::int64_t kblocks = (op.k + m.cta_k - 1) / m.cta_k;
    const std::vector<int> splits =
        req.split_k ? std::vector<int>{req.split_k} : std::vector<int>{1, 2, 4, 8, 16};
    for (const int s : splits) {
      // Unpinned, a count whose last slices would be empty is left out (the kernel would
      // run fewer).
      const std::int64_t per = (kblocks + s - 1) / s;
      if (!req.split_k && s > 1 &&
          (op.causal != Causal::None || kblocks < 2 * s || per * (s - 1) >= kblocks))
        continue;
      KernelMapping sm = m;
      sm.split_k = s;
      split_cands.push_back(sm);
    }
  }
  const KernelMapping* best = nullptr;
  double best_c = 0;
  for (const auto& m : split_cands) {
    const double c = ws_estimate_cycles(op, env, m);
    // Ties (within 0.1%) go to the larger tile: fewer L2 reads for the same time.
    if (!best || c < best_c * 0.999 ||
        (c <= best_c * 1.001 && double(m.cta_m) * m.cta_n > double(best->cta_m) * best->cta_n)) {
      best = &m;
      best_c = c;
    }
  }
  KernelMapping m = *best;
  const bool user = req.cta_m && req.cta_n && !cutlass;
  m.chosen_by =
      user ? "config"
           : best->chosen_by + ": estimate " + std::to_string(std::int64_t(best_c)) + " cycles";
  return m;
}

}  // namespace stcsim
