// The block-sparse tensor-core GEMM (docs/block_sparse.md): W's kept blocks in BSR
// storage are the kernel's A. A CTA owns a row panel: a block-index unit fetches and
// decodes the panel's row_ptr/col_idx slice before any value load can be addressed, and
// its k-tiles run only over the K columns some row of the panel kept (block_plan.h),
// gathering the matching activation rows (X^T, K-major). Dense or 2:4 mma inside kept
// blocks.
#include <algorithm>

#include "models/kernels/block_plan.h"
#include "models/kernels/index_fetch.h"
#include "models/kernels/mainloop_cta.h"
#include "models/kernels/multistage_gemm.h"
#include "models/kernels/split_k_reduce.h"
#include "models/kernels/tensor_core_kernel.h"
#include "models/kernels/tensor_core_ktile.h"

namespace stcsim {

namespace {

// This kernel's stats (sim/core/stat.h), set by report().
constexpr const char* kProducer = "kernel block_sparse_gemm";
const OpStat kBlockRows{
    {"block_sparse.block_rows", "elements", "rows of a weight block", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kBlockCols{{"block_sparse.block_cols", "elements", "columns of a weight block",
                         StatTotal::kNone, kProducer},
                        stat_slot<OpResult>()};
const OpStat kDensity{
    {"block_sparse.density", "0..1", "fraction of weight blocks kept", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kImbalance{{"block_sparse.imbalance", "ratio", "max over mean kept K per CTA",
                         StatTotal::kNone, kProducer},
                        stat_slot<OpResult>()};
const OpStat kIndexWait{
    {"block_sparse.index_wait_cycles_per_cta", "cycles",
     "cycles a CTA waited on its block indices (fetch + decode)", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kIndexWaitFraction{
    {"block_sparse.index_wait_fraction", "0..1",
     "index waits as a fraction of the CTAs' summed lifetimes", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};

struct BlockSparseLaunch : KernelLaunch, GemmTensors {
  std::vector<PanelPlan> panels;  // per row panel: the kept blocks' k-tiles
  TensorCoreWarps warp_work;
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class BlockSparseCta : public MainloopCta {
 public:
  BlockSparseCta(const BlockSparseLaunch& k, const CtaTask& t, int slot, SmContext& sm)
      : MainloopCta(t, k.map.stages, int(k.panels[std::size_t(t.panel)].ktiles.size()), sm),
        k_(k),
        panel_(k.panels[std::size_t(t.panel)]),
        slot_(slot),
        warps_(k.warp_work.fresh_warps()) {
    blocks_through_.assign(std::size_t(ktiles_), 0.0);
    double sum = 0;
    for (int i = 0; i < ktiles_; ++i)
      blocks_through_[std::size_t(i)] = sum += panel_.ktiles[std::size_t(i)].blocks;
  }

 private:
  // When k-tile kt's indices are decoded (kPending before the fetch returns).
  Cycle index_ready(int kt) const {
    if (decode_start_ == kPending) return kPending;
    return decode_start_ + blocks_through_[std::size_t(kt)] / sm_.spec.block_index_blocks_per_cycle;
  }

  Start start(Cycle now) override {
    if (!index_.issued()) {  // the panel's row_ptr and col_idx slices
      MemRequest& r = index_.request();
      r.runs.push_back(RowRun{k_.base.index + panel_.row_ptr_offset, panel_.row_ptr_bytes, 1, 0});
      if (panel_.col_idx_bytes > 0)
        r.runs.push_back(RowRun{k_.base.index + panel_.col_idx_offset, panel_.col_idx_bytes, 1, 0});
      index_.issue(sm_, now);
      wake_ = kPending;
      return Start::Waiting;
    }
    if (!index_.back(now, wake_)) return Start::Waiting;
    if (decode_start_ == kPending)
      decode_start_ = index_.done() + sm_.spec.block_index_latency_cycles;
    const int pro = std::min(int(loads_.size()) - 1, ktiles_);
    const Cycle need = pro > 0 ? index_ready(pro - 1) : index_.done();
    if (!reached(need, now)) {
      wake_ = need;
      return Start::Waiting;
    }
    sm_.counters.index_wait_cycles += now - index_.issued_at();
    if (ktiles_ == 0) return Start::NoWork;  // no kept block: the tile is zeros
    issue_prologue(now);
    return Start::Ready;
  }

  bool may_load(int kt, Cycle now) override {
    const Cycle ready = index_ready(kt);
    if (reached(ready, now)) return true;
    sm_.counters.index_wait_cycles +=
        ready - now;  // the decoder has not reached this k-tile's blocks
    wake_ = ready;
    return false;
  }

  void issue_stage_load(int kt, Cycle) override {
    const auto& op = k_.op;
    const BlockKTile& t = panel_.ktiles[std::size_t(kt)];
    const auto tile_cols = tile_extent(k_, task_).cols;
    const std::int64_t n0 = tile_extent(k_, task_).n0;
    const int eb = input_bytes(op.dtype);
    MemRequest& r = loads_[std::size_t(kt) % loads_.size()];
    r.reset();
    // Kept blocks' values: contiguous in BSR storage, one run per block row of the panel.
    double a_bytes = 0;
    for (const auto& [off, bytes] : t.a_runs) {
      r.runs.push_back(RowRun{k_.base.a + off, bytes, 1, 0});
      a_bytes += bytes;
    }
    if (!k_.mma.sparsity.dense() && a_bytes > 0) {
      // 2:4 inside blocks: the metadata is stored in the values' order, scaled.
      const double ratio = k_.mma.meta_bytes_per_k() / k_.mma.a_bytes_per_k();
      r.runs.push_back(RowRun{k_.base.meta + std::uint64_t(double(t.a_runs.front().first) * ratio),
                              std::uint32_t(a_bytes * ratio), 1, 0});
    }
    // Gather: the activations the kept blocks multiply. The kernel reads X^T (K-major, as
    // gathering SpMM kernels do): a kept K column is a contiguous row of the x tile's
    // activations, so narrow blocks do not waste sectors. A convolution's activation is
    // its NHWC input instead (implicit GEMM, conv_activation.h): each pixel's slice of
    // the kept channels.
    const std::uint64_t bb = k_.base.b + std::uint64_t(task_.batch) * k_.b_stride;
    for (const auto& [k0, len] : t.b_segs) {
      if (k_.activation.present())
        conv_activation_runs(k_.activation, bb, n0, tile_cols, k0, len, r.runs);
      else
        r.runs.push_back(RowRun{bb + std::uint64_t((k0 * op.n + n0) * eb),
                                std::uint32_t(tile_cols * eb), std::uint32_t(len),
                                std::uint64_t(op.n * eb)});
    }
    sm_.submit(r);
  }

  void compute_ktile(Cycle barrier, StallCause cause, double fill_bytes) override {
    compute_tensor_core_ktile(sm_, k_.warp_work, slot_, warps_,
                              panel_.ktiles[std::size_t(kt_)].k_elems, barrier, cause, fill_bytes,
                              copy_bytes_, barrier_ready_, mma_done_);
  }

  double accumulator_tile_bytes() const override {
    return double(k_.map.cta_m) * k_.map.cta_n * staged_output_bytes(k_.map, k_.op.dtype);
  }
  int staging_store_lane_bytes() const override {
    return staging_store_lane_bytes_of(k_.map, k_.op.dtype);
  }

  void issue_store(MemRequest& store) override { tile_store(k_, task_, k_.map.split_k > 1, store); }

  const BlockSparseLaunch& k_;
  const PanelPlan& panel_;
  int slot_;
  std::vector<WarpState> warps_;
  IndexFetch index_;
  Cycle decode_start_ = kPending;
  std::vector<double> blocks_through_;  // indices decoded before k-tile t is usable
};

std::unique_ptr<CtaProgram> BlockSparseLaunch::start_cta(const CtaTask& t, int slot,
                                                         SmContext& sm) const {
  return std::make_unique<BlockSparseCta>(*this, t, slot, sm);
}

class BlockSparseGemm : public TensorCoreKernel {
 public:
  std::string name() const override { return "block_sparse_gemm"; }
  std::string description() const override {
    return "block-sparse tensor-core GEMM over a BSR block map: per-panel index fetch and decode, "
           "k-tiles over kept "
           "blocks only, K-major activation gathers; dense or 2:4 mma inside blocks";
  }
  int auto_priority() const override { return 2; }
  // A panel's k-loop is its kept blocks: scored on the real map, no split-K.
  TileCost tile_cost(const GemmOp& kp, const ChooserHardware& hw) const override {
    return block_tile_cost(kp, hw);
  }
  bool auto_pick(const GemmOp& op, const MappingRequest&) const override {
    return op.block_sparse();
  }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    if (!op.block_sparse())
      return "block_sparse_gemm needs a block map of the weights (--block, or a pruned trace or "
             "model)";
    return unsupported_instruction(op, env);
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p = start_plan(op, env);
    const KernelMapping& map = p.map;
    const GemmOp kp = kernel_problem(op);
    const ConvActivation activation = conv_activation(op);
    TensorAddresses addr = allocate_operands(op, map, allocate, activation);
    addr.index = allocate(
        4.0 * double(op.block_map->block_rows + 1 + op.block_map->nnz()));  // row_ptr, col_idx
    auto k = std::make_unique<BlockSparseLaunch>();
    static_cast<GemmTensors&>(*k) = GemmTensors(op, map, addr);
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    k->warp_work = TensorCoreWarps(map, k->mma, env.smem);
    k->panels = build_panel_plans(*op.block_map, kp, map.cta_m, map.cta_k, k->mma.a_bytes_per_k());
    k->activation = activation;
    k->b_stride = activation.present()  // the next group's channels, in the same pixels
                      ? std::uint64_t(activation.group_channels * activation.element_bytes)
                      : std::uint64_t(kp.n * kp.k * input_bytes(op.dtype));
    k->c_stride = std::uint64_t(kp.m * kp.n * output_bytes(op.dtype));
    k->workspace_stride = std::uint64_t(4 * map.split_k * kp.m * kp.n);
    int splits = 1;
    k->ctas = multistage_cta_order(kp, map, &splits);
    p.ctas = double(k->ctas.size());
    const GemmTensors tensors = *k;
    p.launches.push_back(std::move(k));
    if (map.split_k > 1) p.launches.push_back(split_k_reduce_launch(tensors, splits));
    return p;
  }

  void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv&, const SmActivity& act,
              OpResult& r) const override {
    const auto& k = static_cast<const BlockSparseLaunch&>(*plan.launches.front());
    const int tiles_m = int((k.op.m + k.map.cta_m - 1) / k.map.cta_m);
    const int tiles_n = int((k.op.n + k.map.cta_n - 1) / k.map.cta_n);
    r.block_density = op.block_map->density();
    r.block_imbalance = panel_imbalance(k.panels, tiles_m, k.op.batch, tiles_n);
    r.index_wait_cycles_per_cta = act.index_wait_cycles / std::max(1.0, r.ctas);
    r.index_wait_fraction = act.cta_cycles > 0 ? act.index_wait_cycles / act.cta_cycles : 0;
    r.stats.set(kBlockRows.info(), std::int64_t(op.block_map->r));
    r.stats.set(kBlockCols.info(), std::int64_t(op.block_map->c));
    r.stats.set(kDensity.info(), r.block_density);
    r.stats.set(kImbalance.info(), r.block_imbalance);
    r.stats.set(kIndexWait.info(), r.index_wait_cycles_per_cta);
    r.stats.set(kIndexWaitFraction.info(), r.index_wait_fraction);
    r.weight_path = "block-skipping kernel";
  }
};

const KernelRegistrar<BlockSparseGemm> registered;

}  // namespace

}  // namespace stcsim
