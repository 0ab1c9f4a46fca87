#include "models/kernels/warp_specialized_mapping.h"

#include <algorithm>
#include <cmath>

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
  w.stage_bytes =
      double(m.cta_m) * m.cta_k * (kind.a_bytes_per_k() + kind.meta_bytes_per_k()) + w.b_tile_bytes;
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
  const double grid = std::min<double>(tiles, env.num_sms);
  const double per_cta = std::ceil(tiles / grid);
  const double kblocks = std::ceil(double(op.k) / m.cta_k);
  const double tensor = w.wgmma_per_kblock * env.tc.initiation_interval(w.wgmma);
  const double matrix =
      w.wgmma_per_kblock * w.operand_bytes / env.smem.matrix_read_bytes_per_cycle();
  const double fill = w.stage_bytes / env.smem.bytes_per_cycle();
  const double smem = env.smem.matrix_path_is_port() ? matrix + fill : std::max(matrix, fill);
  // A cluster reads its B tile from the L2 once; every SM still receives a whole stage.
  const double l2_bytes = w.stage_bytes - w.b_tile_bytes * (m.cluster_m - 1) / m.cluster_m;
  const double l2 = std::max(l2_bytes * grid / env.l2_bytes_per_cycle,
                             w.stage_bytes / env.sm.l2_link_bytes_per_cycle);
  const double tile_out = double(m.cta_m) * m.cta_n * output_bytes(kind.dtype);
  const double epilogue =
      m.schedule == "pingpong" ? 0 : 2 * tile_out / env.smem.bytes_per_cycle() + env.l2_hit_latency;
  const double prologue = 2 * env.l2_hit_latency;
  const double compute = per_cta * (kblocks * std::max({tensor, smem, l2}) + epilogue) + prologue;
  const double bytes =
      op.batch * (double(op.m) * op.k * (kind.a_bytes_per_k() + kind.meta_bytes_per_k()) +
                  double(op.n) * op.k * input_bytes(kind.dtype) +
                  double(op.m) * op.n * output_bytes(kind.dtype));
  return std::max(compute, bytes / env.dram_bytes_per_cycle);
}

std::vector<KernelMapping> ws_candidates(const GemmOp& op, const KernelEnv& env) {
  const MmaKind kind = op.kind();
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
  for (const int cluster : {1, 2, 4})
    for (const auto& c : table) {
      if (req.cluster_m ? cluster != req.cluster_m : cluster > 2) continue;
      const std::int64_t tiles_m = (op.m + c.m - 1) / c.m;
      if (cluster > 1 && (tiles_m % cluster || req.swizzle > 1)) continue;
      if (req.schedule != "auto" && req.schedule != c.schedule) continue;
      if ((req.cta_m && req.cta_m != c.m) || (req.cta_n && req.cta_n != c.n)) continue;
      KernelMapping m;
      m.cta_m = c.m;
      m.cta_n = c.n;
      m.cta_k = req.cta_k ? req.cta_k : dense_ktile(kind);
      m.schedule = c.schedule;
      m.warp_m = 16;  // each warp of a consumer warpgroup runs 16 rows of an m64 wgmma
      m.warp_n = c.n;
      m.swizzle = req.swizzle ? req.swizzle : 1;
      m.cluster_m = cluster;
      const int fit = ws_stages(m, kind, env.sm);
      m.stages = req.stages ? std::min(req.stages, fit) : fit;
      if (m.stages < 2) continue;
      m.chosen_by = "heuristic";
      out.push_back(m);
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
  const auto cands = ws_candidates(op, env);
  if (cands.empty())
    throw InputError(
        "mapping: no warp_specialized_gemm tile matches cta_m=" + std::to_string(req.cta_m) +
        " cta_n=" + std::to_string(req.cta_n) + " schedule=" + req.schedule +
        " cluster_m=" + std::to_string(req.cluster_m) +
        " with at least 2 stages in shared memory (tiles: 64/128/256 x 64/128/256; cooperative "
        "needs cta_m >= 128, pingpong cta_m <= 128; a cluster needs the M tiles in whole "
        "clusters and swizzle 1)");
  const KernelMapping* best = nullptr;
  double best_c = 0;
  for (const auto& m : cands) {
    const double c = ws_estimate_cycles(op, env, m);
    // Ties (within 0.1%) go to the larger tile: fewer L2 reads for the same time.
    if (!best || c < best_c * 0.999 ||
        (c <= best_c * 1.001 && double(m.cta_m) * m.cta_n > double(best->cta_m) * best->cta_n)) {
      best = &m;
      best_c = c;
    }
  }
  KernelMapping m = *best;
  const bool user = req.cta_m && req.cta_n;
  m.chosen_by =
      user ? "config" : "heuristic: estimate " + std::to_string(std::int64_t(best_c)) + " cycles";
  return m;
}

}  // namespace stcsim
