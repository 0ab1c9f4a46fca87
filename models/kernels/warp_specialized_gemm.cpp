// Kernel "warp_specialized_gemm": the Hopper GEMM that cuBLAS, cuSPARSELt and CUTLASS
// sm90 run (TMA loads into a stage ring, warpgroup wgmma / wgmma.sp from shared memory,
// a persistent static tile scheduler, a TMA-store epilogue), in CUTLASS's cooperative
// and ping-pong schedules, dense and N:M. The CTA itself is warp_specialized_cta.h; the
// tile and schedule come from warp_specialized_mapping.h.
#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "models/kernels/multistage_gemm.h"
#include "models/kernels/tensor_core_kernel.h"
#include "models/kernels/warp_specialized_cta.h"
#include "models/kernels/warp_specialized_mapping.h"

namespace stcsim {

namespace {

// Split-K: each tile entry's previous K slice of the same output tile and whether it is
// the last (the tile list is slice-major: a tile's slices come in K order).
void link_k_slices(WsLaunch& k, const KernelEnv& env) {
  std::map<std::tuple<int, int, int>, std::int64_t> last;  // (batch, tile_m, tile_n) -> entry
  k.prev_slice.assign(k.tiles.size(), -1);
  k.last_slice.assign(k.tiles.size(), 1);
  for (std::size_t i = 0; i < k.tiles.size(); ++i) {
    const CtaTask& t = k.tiles[i];
    const auto key = std::make_tuple(t.batch, t.tile_m, t.tile_n);
    const auto it = last.find(key);
    if (it != last.end()) {
      k.prev_slice[i] = it->second;
      k.last_slice[std::size_t(it->second)] = 0;
    }
    last[key] = std::int64_t(i);
  }
  k.arrived.assign(k.tiles.size(), std::numeric_limits<Cycle>::infinity());
  // A spinning consumer's load of the lock goes to the L2 and back.
  k.lock_poll_cycles = std::max(1.0, env.l2_hit_latency);
}

class WarpSpecializedGemm : public TensorCoreKernel {
 public:
  std::string name() const override { return "warp_specialized_gemm"; }
  bool uniform_ctas(const GemmOp& op) const override { return op.causal == Causal::None; }
  std::string description() const override {
    return "tensor-core GEMM, CUTLASS sm90 warp-specialized persistent kernel (TMA producer "
           "warpgroup, "
           "wgmma / wgmma.sp consumer warpgroups, cooperative or ping-pong schedule, TMA-store "
           "epilogue); "
           "needs wgmma and a TMA unit";
  }
  std::vector<ParamDecl> params() const override {
    std::vector<ParamDecl> out;
    for (auto& d : MappingRequest::params())
      if (d.key == "cta_m" || d.key == "cta_n" || d.key == "cta_k" || d.key == "stages" ||
          d.key == "swizzle" || d.key == "schedule" || d.key == "cluster_m" ||
          d.key == "cluster_n" || d.key == "policy" || d.key == "split_k")
        out.push_back(std::move(d));
    return out;
  }
  // Asked before multistage_gemm: on an SM with wgmma and TMA it is what libraries run.
  // A mapping with Ampere-only keys (a warp tile, CUTLASS's sm80 tile list) asks for the
  // multistage kernel; split-K runs here in the persistent kernel (its slices reduced
  // through a workspace lock, not by a second launch).
  int auto_priority() const override { return 2; }
  bool auto_pick(const GemmOp& op, const MappingRequest& req) const override {
    return !op.block_sparse() && req.warp_m == 0 && req.warp_n == 0 && req.policy != "cutlass_sm80";
  }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    if (op.block_sparse())
      return "warp_specialized_gemm runs dense or N:M weights, not a block map";
    if (!env.tma.present())
      return "warp_specialized_gemm needs a TMA unit (this GPU's tma.impl is none)";
    if (op.causal != Causal::None && env.request.split_k > 1)
      return "a causal attention GEMM runs without split-K (mapping.split_k " +
             std::to_string(env.request.split_k) + ")";
    const MmaKind wg{op.dtype, op.sparsity, 64};
    if (!env.tc.supports(wg))
      return "this GPU's tensor cores have " + env.tc.unsupported_reason(wg);
    return "";
  }

  KernelMapping mapping(const GemmOp& op, const KernelEnv& env) const override {
    return choose_ws_mapping(kernel_problem(op), env);
  }
  // Its (tile, cluster, schedule) choice is not searched by simulation (yet).
  std::vector<KernelMapping> ranked_mappings(const GemmOp&, const KernelEnv&, int) const override {
    return {};
  }
  double estimate_cycles(const GemmOp& op, const KernelMapping& map,
                         const KernelEnv& env) const override {
    return ws_estimate_cycles(kernel_problem(op), env, map);
  }
  Occupancy occupancy(const GemmOp&, const KernelMapping&, const KernelEnv& env) const override {
    // One persistent CTA per SM: its stages fill shared memory, and setmaxnreg hands the
    // consumers the registers the producer gives up.
    const int regs = 128 * kWsProducerRegs + (kWsThreads - 128) * kWsConsumerRegs;
    if (regs > env.sm.registers) return {0, "registers"};
    if (kWsThreads > env.sm.max_threads) return {0, "threads"};
    return {1, "smem"};
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p = start_plan(op, env);
    const KernelMapping& map = p.map;
    const GemmOp kp = kernel_problem(op);
    auto k = operand_launch<WsLaunch>(op, map, allocate);
    k->work = ws_work(map, op.kind());
    k->consumers = map.schedule == "pingpong" ? 2 : 1;
    // Tiles in groups of cluster_n adjacent N tiles, N fastest within a group and M
    // after it, so that every cluster_m x cluster_n consecutive tiles form one cluster's
    // block (the M and N tiles come in whole clusters, swizzle is 1).
    KernelMapping order = map;
    order.swizzle = std::max(map.swizzle, map.cluster_n);
    k->tiles = multistage_cta_order(kp, order, nullptr);
    if (map.split_k > 1) link_k_slices(*k, env);
    // Whole clusters: CTA g takes tiles g, g + grid, ..., so with a grid of whole clusters
    // a cluster's CTAs always hold one block of tiles.
    const std::size_t slots = std::size_t(env.num_sms) * std::size_t(p.occupancy.ctas_per_sm);
    const auto cluster = std::size_t(map.cluster_m * map.cluster_n);
    k->grid = int(std::min(k->tiles.size(), slots / cluster * cluster));
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    for (int c = 0; c < k->grid; ++c) {
      CtaTask t;
      t.panel = c;
      k->ctas.push_back(t);
    }
    p.ctas = double(k->grid);
    p.launches.push_back(std::move(k));
    return p;
  }

  void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv& env, const SmActivity&,
              OpResult& r) const override {
    // The instruction is the wgmma, and the peak is the wgmma rate (dense-equivalent).
    const MmaKind wg = ws_work(plan.map, op.kind()).wgmma;
    r.instruction = wg.str();
    r.peak_tflops = env.peak_tflops(wg);
    r.peak_products_per_second = env.peak_products_per_second(wg);
  }
};

const KernelRegistrar<WarpSpecializedGemm> registered;

}  // namespace

}  // namespace stcsim
