#include "models/kernels/split_k_reduce.h"

#include <algorithm>

#include "models/kernels/i_kernel.h"

namespace stcsim {

namespace {

// 4 CTAs per SM stream the partials: the kernel is bandwidth-bound, not resident-bound.
constexpr int kReduceCtasPerSm = 4;

struct ReduceLaunch : KernelLaunch, GemmTensors {
  int splits = 1;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

// Load every slice's partial tile, then store the sum.
class ReduceCta : public CtaProgram {
 public:
  ReduceCta(const ReduceLaunch& k, const CtaTask& t, SmContext& sm) : k_(k), task_(t), sm_(sm) {
    wake_ = now_cycles() + sm.spec.cta_launch_cycles;
  }

  bool advance(Cycle now) override {
    while (true) {
      switch (state_) {
        case State::Launch:
          if (!reached(wake_, now)) return false;
          issue_partials_load();
          state_ = State::Load;
          wake_ = kPending;
          return false;
        case State::Load:
          if (!reached(partials_.done, now)) {
            wake_ = partials_.done;
            return false;
          }
          tile_store(k_, task_, false, store_);
          sm_.submit(store_);
          state_ = State::Storing;
          wake_ = kPending;
          return false;
        case State::Storing:
          sm_.last_write_done = std::max(sm_.last_write_done, store_.done);
          state_ = State::Retire;
          wake_ = store_.link_done;
          continue;
        case State::Retire:
          return reached(wake_, now);
      }
    }
  }

 private:
  void issue_partials_load() {
    const auto& op = k_.op;
    const auto [m0, n0, tile_rows, cols] = tile_extent(k_, task_);
    partials_.reset();
    for (int split = 0; split < k_.splits; ++split)
      partials_.runs.push_back(
          RowRun{k_.base.workspace + std::uint64_t(task_.batch) * k_.workspace_stride +
                     std::uint64_t((split * op.m * op.n + m0 * op.n + n0) * 4),
                 std::uint32_t(cols * 4), std::uint32_t(tile_rows), std::uint64_t(op.n * 4)});
    sm_.submit(partials_);
  }

  enum class State { Launch, Load, Storing, Retire };
  const ReduceLaunch& k_;
  CtaTask task_;
  SmContext& sm_;
  State state_ = State::Launch;
  MemRequest partials_, store_;
};

std::unique_ptr<CtaProgram> ReduceLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<ReduceCta>(*this, t, sm);
}

// Listed and named like every kernel; it runs only as the follow-up of a split-K GEMM.
class SplitKReduce : public IKernel {
 public:
  std::string name() const override { return "split_k_reduce"; }
  std::string description() const override {
    return "split-K reduction: sums a GEMM's fp32 partial tiles and writes D (follows a GEMM with "
           "split_k > 1)";
  }
  int auto_priority() const override { return 0; }
  bool auto_pick(const GemmOp&, const MappingRequest&) const override { return false; }
  std::string cannot_run(const GemmOp&, const KernelEnv&) const override {
    return "split_k_reduce runs only after a split-K GEMM (set mapping.split_k on multistage_gemm)";
  }
  KernelMapping mapping(const GemmOp&, const KernelEnv&) const override { return {}; }
  Occupancy occupancy(const GemmOp&, const KernelMapping&, const KernelEnv&) const override {
    return {kReduceCtasPerSm, "ctas"};
  }
  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate&) const override {
    throw std::logic_error(cannot_run(op, env));
  }
  void report(const GemmOp&, const KernelPlan&, const KernelEnv&, const SmActivity&,
              OpResult&) const override {}
};

const KernelRegistrar<SplitKReduce> registered;

}  // namespace

std::unique_ptr<KernelLaunch> split_k_reduce_launch(const GemmTensors& gemm, int splits) {
  auto k = std::make_unique<ReduceLaunch>();
  static_cast<GemmTensors&>(*k) = gemm;
  k->splits = splits;
  k->ctas_per_sm = kReduceCtasPerSm;
  const int tiles_m = int((gemm.op.m + gemm.map.cta_m - 1) / gemm.map.cta_m);
  const int tiles_n = int((gemm.op.n + gemm.map.cta_n - 1) / gemm.map.cta_n);
  for (int batch = 0; batch < gemm.op.batch; ++batch)
    for (int tm = 0; tm < tiles_m; ++tm)
      for (int tn = 0; tn < tiles_n; ++tn)
        k->ctas.push_back(CtaTask{tm, tn, 0, batch, 0, gemm.op.k, 0});
  return k;
}

}  // namespace stcsim
