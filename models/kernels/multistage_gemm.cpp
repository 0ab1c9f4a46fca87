#include "models/kernels/multistage_gemm.h"

#include <algorithm>

#include "models/kernels/mainloop_cta.h"
#include "models/kernels/split_k_reduce.h"
#include "models/kernels/tensor_core_kernel.h"
#include "models/kernels/tensor_core_ktile.h"

namespace stcsim {

std::vector<CtaTask> multistage_cta_order(const GemmOp& op, const KernelMapping& map, int* splits) {
  std::vector<CtaTask> ctas;
  const int tiles_m = int((op.m + map.cta_m - 1) / map.cta_m);
  const int tiles_n = int((op.n + map.cta_n - 1) / map.cta_n);
  // K slices are whole k-tiles so that every slice but the last is full.
  const std::int64_t ktiles = (op.k + map.cta_k - 1) / map.cta_k;
  const std::int64_t per_split = (ktiles + map.split_k - 1) / map.split_k;
  const int group = std::max(1, map.swizzle);
  int used = 1;
  for (int batch = 0; batch < op.batch; ++batch)
    for (int split = 0; split < map.split_k; ++split) {
      const std::int64_t kb = std::min<std::int64_t>(op.k, split * per_split * map.cta_k);
      const std::int64_t ke = std::min<std::int64_t>(op.k, (split + 1) * per_split * map.cta_k);
      if (kb >= ke) continue;
      used = split + 1;
      // Rasterization: launch `group` adjacent N-tiles together, M fastest within them,
      // so concurrently running CTAs share A row panels and B column panels in the L2.
      for (int n0 = 0; n0 < tiles_n; n0 += group)
        for (int tm = 0; tm < tiles_m; ++tm)
          for (int tn = n0; tn < std::min(tiles_n, n0 + group); ++tn) {
            // A causal mask: rows [tm cta_m, last) see columns up to last - 1 only.
            const std::int64_t last =
                std::min<std::int64_t>(op.m, std::int64_t(tm + 1) * map.cta_m);
            if (op.causal == Causal::Output && std::int64_t(tn) * map.cta_n >= last) continue;
            std::int64_t kend = ke;
            if (op.causal == Causal::A)
              kend = std::min(ke, (last + map.cta_k - 1) / map.cta_k * map.cta_k);
            if (kb >= kend) continue;
            ctas.push_back(CtaTask{tm, tn, split, batch, kb, kend, batch * tiles_m + tm});
          }
    }
  if (splits) *splits = used;
  return ctas;
}

namespace {

struct MultistageLaunch : KernelLaunch, GemmTensors {
  int splits = 1;  // non-empty K slices (partials the reduction reads)
  TensorCoreWarps warp_work;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class MultistageCta : public MainloopCta {
 public:
  MultistageCta(const MultistageLaunch& k, const CtaTask& t, int slot, SmContext& sm)
      : MainloopCta(t, k.map.stages, int((t.k_end - t.k_begin + k.map.cta_k - 1) / k.map.cta_k),
                    sm),
        k_(k),
        slot_(slot),
        warps_(k.warp_work.fresh_warps()) {
    parts_ = k.map.mainloop_parts;
  }

 private:
  Start start(Cycle now) override {
    issue_prologue(now);
    return Start::Ready;
  }

  void issue_stage_load(int kt, Cycle) override {
    MemRequest& r = loads_[std::size_t(kt) % loads_.size()];
    tile_stage_load(k_, task_, task_.k_begin + std::int64_t(kt) * k_.map.cta_k, r);
    sm_.submit(r);
  }

  void compute_ktile(Cycle barrier, StallCause cause, double fill_bytes) override {
    const std::int64_t k0 = task_.k_begin + std::int64_t(kt_) * k_.map.cta_k;
    const int kb = int(std::min<std::int64_t>(k_.map.cta_k, task_.k_end - k0));
    compute_tensor_core_ktile(sm_, k_.warp_work, slot_, warps_, kb, barrier, cause, fill_bytes,
                              copy_bytes_, barrier_ready_, mma_done_);
  }

  double accumulator_tile_bytes() const override {
    return double(k_.map.cta_m) * k_.map.cta_n * staged_output_bytes(k_.map, k_.op.dtype);
  }
  int staging_store_lane_bytes() const override {
    return staging_store_lane_bytes_of(k_.map, k_.op.dtype);
  }

  void issue_store(MemRequest& store) override { tile_store(k_, task_, k_.map.split_k > 1, store); }

  const MultistageLaunch& k_;
  int slot_;
  std::vector<WarpState> warps_;
};

std::unique_ptr<CtaProgram> MultistageLaunch::start_cta(const CtaTask& t, int slot,
                                                        SmContext& sm) const {
  return std::make_unique<MultistageCta>(*this, t, slot, sm);
}

class MultistageGemm : public TensorCoreKernel {
 public:
  std::string name() const override { return "multistage_gemm"; }
  // Every output tile over the whole K, unless a causal mask trims tiles and K ranges.
  bool uniform_ctas(const GemmOp& op) const override { return op.causal == Causal::None; }
  std::string description() const override {
    return "tensor-core GEMM, CUTLASS sm80 multistage mainloop (cp.async stages, ldmatrix, "
           "mma.sync; mma.sp for "
           "N:M weights); split-K partials reduced by split_k_reduce";
  }
  int auto_priority() const override { return 1; }  // the default: any op no other kernel takes
  bool auto_pick(const GemmOp& op, const MappingRequest&) const override {
    return !op.block_sparse();
  }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    if (op.block_sparse())
      return "multistage_gemm runs dense or N:M weights, not a block map (use block_sparse_gemm)";
    if (op.causal != Causal::None && env.request.split_k > 1)
      return "a causal attention GEMM runs without split-K (mapping.split_k " +
             std::to_string(env.request.split_k) + ")";
    return unsupported_instruction(op, env);
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p = start_plan(op, env);
    const KernelMapping& map = p.map;
    const GemmOp kp = kernel_problem(op);
    auto k = operand_launch<MultistageLaunch>(op, map, allocate);
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    k->warp_work = TensorCoreWarps(map, k->mma, env.smem);
    k->ctas = multistage_cta_order(kp, map, &k->splits);
    p.ctas = double(k->ctas.size());
    p.launches.push_back(std::move(k));
    if (map.split_k > 1) {
      // The partials are summed by the reduction kernel, which reads this plan's tensors.
      const auto& main = static_cast<const MultistageLaunch&>(*p.launches.front());
      p.launches.push_back(split_k_reduce_launch(main, main.splits));
    }
    return p;
  }

  void report(const GemmOp&, const KernelPlan&, const KernelEnv&, const SmActivity&,
              OpResult&) const override {}
};

const KernelRegistrar<MultistageGemm> registered;

}  // namespace

}  // namespace stcsim
