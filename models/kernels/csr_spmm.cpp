// The row-split CSR SpMM on the CUDA cores (csr_plan.h; Sputnik, Gale et al. SC'20):
// the unstructured-sparsity baseline. A CTA's warps each own a row of W; the CTA first
// fetches its rows' row_ptr entries, then per stage loads the rows' nonzeros (values
// and column indices) and gathers the activation rows they select through the L1,
// and its warps run fp32 FMA on their sub-core's FP32 pipe. A convolution's activation is
// its input in channel planes (conv_activation.h, conv_chw_spans), not an unrolled copy.
// That is the staged loop (Sputnik's, the default); the dependent loop, our validation
// harness's kernel, runs its warps as independent chains (csr_warp_chains.h).
#include <algorithm>

#include "models/kernels/csr_launch.h"
#include "models/kernels/csr_plan.h"
#include "models/kernels/csr_warp_chains.h"
#include "models/kernels/i_kernel.h"
#include "models/kernels/index_fetch.h"
#include "models/kernels/l1_gather.h"
#include "models/kernels/mainloop_cta.h"

namespace stcsim {

namespace {

// This kernel's stats (sim/core/stat.h), set by report().
constexpr const char* kProducer = "kernel csr_spmm";
const OpStat kKernel{{"csr.kernel", "-", "the algorithm", StatTotal::kNone, kProducer},
                     stat_slot<OpResult>()};
const OpStat kDensity{
    {"csr.density", "0..1", "fraction of weights kept", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kNonzeros{{"csr.nonzeros", "weights", "kept weights", StatTotal::kNone, kProducer},
                       stat_slot<OpResult>()};
const OpStat kImbalance{
    {"csr.imbalance", "ratio", "max over mean nonzeros per CTA", StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kIndexWait{{"csr.index_wait_cycles_per_cta", "cycles",
                         "cycles a CTA waited on its row_ptr entries", StatTotal::kNone, kProducer},
                        stat_slot<OpResult>()};

// The staged loop (Sputnik's): a CTA-wide stage of each warp's next nonzeros, its values,
// indices and the distinct rows of X^T they select in one request, then the warps' FMAs.
class CsrCta : public MainloopCta {
 public:
  CsrCta(const CsrLaunch& k, const CtaTask& t, int slot, SmContext& sm)
      : MainloopCta(t, k.map.stages, int(k.panels[std::size_t(t.panel)].stages.size()), sm),
        k_(k),
        panel_(k.panels[std::size_t(t.panel)]),
        slot_(slot),
        l1_ready_(loads_.size(), 0) {}

 private:
  Start start(Cycle now) override {
    if (!index_
             .issued()) {  // each row's two row_ptr entries (rows are scattered by the row swizzle)
      for (auto r : panel_.rows) index_.request().add_run(k_.base.index + std::uint64_t(r) * 4, 8);
      index_.issue(sm_, now);
      wake_ = kPending;
      return Start::Waiting;
    }
    if (!index_.back(now, wake_)) return Start::Waiting;
    // Row offsets in: the prologue stages can be addressed.
    sm_.counters.index_wait_cycles += now - index_.issued_at();
    if (ktiles_ == 0) return Start::NoWork;
    issue_prologue(now);
    return Start::Ready;
  }

  void issue_stage_load(int kt, Cycle now) override {
    const std::size_t slot = std::size_t(kt) % loads_.size();
    MemRequest& r = loads_[slot];
    r.reset();
    const CsrStage& st = panel_.stages[std::size_t(kt)];
    add_values_and_indices(st, r);
    gather(st.cols(), st.col_count(), r, slot, now);
  }

  // A stage's nonzero values and column indices, as runs of `r`.
  void add_values_and_indices(const CsrStage& st, MemRequest& r) const {
    const std::uint64_t idx = k_.base.index + k_.col_idx_offset;
    for (std::size_t i = 0; i < st.runs(); ++i) {
      const auto [off, bytes] = st.value_run(i);
      r.add_run(k_.base.a + off, bytes);
    }
    for (std::size_t i = 0; i < st.runs(); ++i) {
      const auto [off, bytes] = st.index_run(i);
      r.add_run(idx + off, bytes);
    }
  }

  // Gathers the rows `cols` of X^T for this CTA's columns through the L1 into `r` (its
  // misses), charges the L1's data path, and submits `r` (all hits: nothing to submit).
  void gather(const std::int64_t* cols, std::size_t n, MemRequest& r, std::size_t slot, Cycle now) {
    l1_ready_[slot] = gather_x_rows(k_, task_, cols, n, sm_, spans_, r, now);
    if (!r.empty()) sm_.submit(r);
  }

  Cycle stage_ready(int stage) const override { return l1_ready_[std::size_t(stage)]; }

  bool uses_fill_bytes() const override { return false; }

  void compute_ktile(Cycle barrier, StallCause, double) override {
    const int nsub = int(sm_.cuda.size());
    const int first = slot_ * int(panel_.rows.size());
    // A k-tile is a stage: each warp's nonzeros in it.
    const CsrStage& st = panel_.stages[std::size_t(kt_)];
    Cycle done = barrier;
    for (std::size_t w = 0; w < st.rows(); ++w) {
      const int nnz = st.row_nnz(w);
      if (nnz == 0) continue;
      const Cycle dur = nnz * k_.cycles_per_nnz;
      const Cycle t = sm_.cuda[std::size_t((first + int(w)) % nsub)].reserve(barrier, dur);
      done = std::max(done, t + dur);
    }
    // The CTA syncs before the stage's buffer is refilled (Sputnik's __syncthreads).
    barrier_ready_ = done;
    mma_done_ = std::max(mma_done_, done);
  }

  double accumulator_tile_bytes() const override {
    return double(k_.map.cta_m) * k_.map.cta_n * output_bytes(k_.op.dtype);
  }
  // Sputnik's OutputTile stores each thread's register fragment straight to global memory
  // (sputnik/spmm/output_tile.h), as the dependent loop's warps do: no staging pass.
  bool stages_output() const override { return false; }

  void issue_store(MemRequest& store) override {
    // Y^T row-major (K-major for the next layer, the layout the kernel reads X^T in):
    // one contiguous run per row of W.
    const auto& op = k_.op;
    const int ob = output_bytes(op.dtype);
    const auto [m0, n0, rows, cols] = tile_extent(k_, task_);
    store.reset();
    store.write = true;
    for (auto row : panel_.rows)
      store.runs.push_back(RowRun{k_.base.c + std::uint64_t((row * op.n + n0) * ob),
                                  std::uint32_t(cols * ob), 1, 0});
  }

  const CsrLaunch& k_;
  const CsrPanel& panel_;
  int slot_;
  std::vector<Span> spans_;      // scratch: the stage's gathered spans
  std::vector<Cycle> l1_ready_;  // per stage buffer, when its L1 hits land
  IndexFetch index_;
};

}  // namespace

Cycle gather_x_rows(const CsrLaunch& k, const CtaTask& t, const std::int64_t* cols, std::size_t n,
                    SmContext& sm, std::vector<Span>& spans, MemRequest& r, Cycle now) {
  const auto& op = k.op;
  const int eb = input_bytes(op.dtype);
  const std::int64_t n0 = std::int64_t(t.tile_n) * k.map.cta_n;
  const auto width = std::uint32_t(std::min<std::int64_t>(k.map.cta_n, op.n - n0));
  // Gathers of X^T rows go through the L1: only the sectors it misses reach the L2.
  const std::uint64_t xb = k.base.b + std::uint64_t(t.batch) * k.b_stride;
  double bytes = 0;
  std::size_t count = n;  // spans
  if (k.activation.present()) {
    // A convolution: each gathered K index is a tap of one channel, read from the
    // input's channel plane (NCHW) along the tile's output rows, not from an unrolled
    // copy.
    spans.clear();
    for (std::size_t i = 0; i < n; ++i)
      bytes += double(eb) * double(conv_chw_spans(k.activation, xb, cols[i], n0, width, spans));
    count = spans.size();
  } else {
    // A matrix: one span of `width` elements a gathered row, written in place into the
    // scratch (grown, never cleared: the rows are gathered once a stage for every CTA, so
    // host time that shows).
    if (spans.size() < n) spans.resize(n);
    Span* const out = spans.data();
    const std::uint64_t first = xb + std::uint64_t(n0 * eb), row = std::uint64_t(op.n * eb),
                        span = std::uint64_t(width) * eb;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t a0 = first + std::uint64_t(cols[i]) * row;
      out[i] = Span{a0, a0 + span};
    }
    bytes = double(n * span);
  }
  load_spans_through_l1(sm, spans.data(), count, r);
  if (r.empty()) r.done = r.link_done = now;  // every sector hit the L1
  // Every gathered byte crosses the L1's data path, shared with shared memory; hits
  // arrive after the L1's latency (a hit on a line still being filled is not delayed
  // further: no MSHR model).
  return std::max(sm.smem.write(now, bytes), now + sm.spec.l1_hit_latency_cycles);
}

std::unique_ptr<CtaProgram> CsrLaunch::start_cta(const CtaTask& t, int slot, SmContext& sm) const {
  if (dependent_gathers) return std::make_unique<CsrWarpChains>(*this, t, slot, sm);
  return std::make_unique<CsrCta>(*this, t, slot, sm);
}

namespace {

bool unstructured(const GemmOp& op) {
  return op.block_map && op.block_map->r == 1 && op.block_map->c == 1 && op.sparsity.dense();
}

class CsrSpmm : public IKernel {
 public:
  std::string name() const override { return "csr_spmm"; }
  std::string description() const override {
    return "row-split CSR SpMM on the CUDA cores (Sputnik-style): one warp per weight row, staged "
           "nonzeros, "
           "activation gathers through the L1, fp32 FMA";
  }
  int auto_priority() const override { return 3; }
  bool auto_pick(const GemmOp& op, const MappingRequest& req) const override {
    return unstructured(op) && req.unstructured_kernel == name();
  }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    if (!unstructured(op))
      return "the CSR kernel needs an unstructured (1x1) weight mask and no N:M pattern";
    if (occupancy(op, {}, env).ctas_per_sm < 1)
      return "the CSR kernel's CTA of " + std::to_string(mapping(op, env).threads()) +
             " threads does not fit this SM (sm.max_threads " + std::to_string(env.sm.max_threads) +
             ")";
    return "";
  }
  KernelMapping mapping(const GemmOp& op, const KernelEnv& env) const override {
    return csr_mapping(
        csr_tile_cols(kernel_problem(op).n, env.sm.fp32_lanes_per_sub_core, op.dtype));
  }
  double estimate_cycles(const GemmOp& op, const KernelMapping&,
                         const KernelEnv& env) const override {
    return roofline_cycles(op, env, cuda_core_fma_per_cycle(env));
  }
  Occupancy occupancy(const GemmOp&, const KernelMapping&, const KernelEnv& env) const override {
    // 4 warps, ~1.5 KB of shared memory, few registers: threads bound it.
    const KernelMapping m = csr_mapping(64);  // the CTA's threads do not depend on its width
    return thread_bound_occupancy(env, m.threads());
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p;
    p.map = mapping(op, env);
    p.occupancy = occupancy(op, p.map, env);
    const GemmOp kp = kernel_problem(op);
    const double nb = op.batch, eb = input_bytes(op.dtype);
    const double nnz = double(op.block_map->nnz());
    TensorAddresses addr;
    addr.a = allocate(nnz * eb);                                                // values
    addr.index = allocate(4.0 * (double(op.block_map->block_rows) + 1 + nnz));  // row_ptr, col_idx
    const ConvActivation activation = conv_activation(op);
    addr.b = activation.present() ? allocate(activation.tensor_bytes())  // the input, NCHW
                                  : allocate(nb * kp.n * kp.k * eb);     // X^T, K-major
    addr.c = allocate(nb * op.m * op.n * output_bytes(op.dtype));        // Y^T

    auto k = std::make_unique<CsrLaunch>();
    static_cast<GemmTensors&>(*k) = GemmTensors(op, p.map, addr);
    k->mma = MmaKind{op.dtype, {}};  // no tensor-core instruction; the dtype sets the bytes
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    k->panels = build_csr_panels(*op.block_map, kp.batch, kp.m, p.map.cta_m, p.map.cta_k,
                                 input_bytes(op.dtype));
    k->cycles_per_nnz = csr_cycles_per_nnz(p.map.cta_n, env.sm.fp32_lanes_per_sub_core, op.dtype);
    k->dependent_gathers = env.request.csr_gather_loop == "dependent";
    // The dependent loop's warps read their rows from a row-swizzle array (our harness's
    // kernel, as Sputnik's): placed after every other tensor, so the staged loop's
    // addresses are those it always had.
    if (k->dependent_gathers) k->row_order = allocate(4.0 * double(k->panels.size()) * p.map.cta_m);
    k->col_idx_offset = std::uint64_t(op.block_map->block_rows + 1) * 4;
    k->activation = activation;
    k->b_stride = activation.present() ? conv_chw_group_stride(activation)
                                       : std::uint64_t(kp.n * kp.k * input_bytes(op.dtype));
    const int tiles_n = int((kp.n + p.map.cta_n - 1) / p.map.cta_n);
    // Sputnik's grid: the row panel is blockIdx.x, the column tile blockIdx.y (a batch
    // blockIdx.z), and blocks launch x fastest, so every panel of one column tile
    // (heaviest first: the row swizzle) goes before the next tile. An SM's resident CTAs
    // then gather rows of the same columns of X^T and share them in its L1.
    const int npanels = int(k->panels.size());
    for (int first = 0, end = 0; first < npanels; first = end) {
      const int batch = k->panels[std::size_t(first)].batch;
      while (end < npanels && k->panels[std::size_t(end)].batch == batch) ++end;
      for (int tn = 0; tn < tiles_n; ++tn)
        for (int pi = first; pi < end; ++pi)
          k->ctas.push_back(CtaTask{pi, tn, 0, batch, 0, kp.k, pi});
    }
    p.ctas = double(k->ctas.size());
    p.launches.push_back(std::move(k));
    return p;
  }

  void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv& env, const SmActivity& act,
              OpResult& r) const override {
    const auto& k = static_cast<const CsrLaunch&>(*plan.launches.front());
    report_cuda_core_peak(env, r);
    r.block_density = op.block_map->density();
    double mx = 0, sum = 0;
    for (const auto& p : k.panels) {
      mx = std::max(mx, double(p.nnz));
      sum += double(p.nnz);
    }
    r.block_imbalance = sum > 0 ? mx / (sum / double(k.panels.size())) : 1.0;
    r.index_wait_cycles_per_cta = act.index_wait_cycles / std::max(1.0, r.ctas);
    r.index_wait_fraction = act.cta_cycles > 0 ? act.index_wait_cycles / act.cta_cycles : 0;
    r.on_cuda_cores = true;
    r.instruction = op.dtype == Dtype::INT8 ? "s32 IMAD (CUDA cores)" : "fp32 FMA (CUDA cores)";
    // Each output accumulates in fp32 FMAs, nonzero by nonzero in K order (a pruned
    // weight adds an exact zero product).
    r.accumulation = "ieee_sequential";
    r.weight_path = "CSR SpMM on CUDA cores";
    r.stats.set(kKernel.info(),
                std::string(k.dependent_gathers ? "row-split CSR SpMM on CUDA cores, dependent "
                                                  "gather loop"
                                                : "row-split CSR SpMM on CUDA cores"));
    r.stats.set(kDensity.info(), r.block_density);
    r.stats.set(kNonzeros.info(), std::int64_t(op.block_map->nnz()));
    r.stats.set(kImbalance.info(), r.block_imbalance);
    r.stats.set(kIndexWait.info(), r.index_wait_cycles_per_cta);
  }
};

const KernelRegistrar<CsrSpmm> registered;

}  // namespace

}  // namespace stcsim
