// Kernel "row_op": the non-GEMM ops of a network (softmax, LayerNorm, RMSNorm, GELU,
// SwiGLU's silu-mul, residual adds, embedding lookups) on the CUDA cores, one CTA per
// chunk of whole rows (row_op_plan.h has the launch). Each CTA loads its chunk of every
// input tensor from global memory at once (the threads' vectorized loads are independent),
// spends the op's instructions per element on its warps' sub-cores, and stores its chunk
// of the output: memory-bound on every preset, so the L2 and DRAM see the op's real bytes.
#include <algorithm>

#include "models/kernels/i_kernel.h"
#include "models/kernels/mainloop_cta.h"
#include "models/kernels/row_op_plan.h"

namespace stcsim {

namespace {

constexpr const char* kProducer = "kernel row_op";
const OpStat kKind{{"row_op.kind", "-",
                    "the op (softmax, layernorm, rmsnorm, gelu, silu_mul, add, "
                    "embedding)",
                    StatTotal::kNone, kProducer},
                   stat_slot<OpResult>()};
const OpStat kElements{{"row_op.elements", "elements",
                        "elements written (a causal softmax's "
                        "kept triangle)",
                        StatTotal::kNone, kProducer},
                       stat_slot<OpResult>()};
const OpStat kCompulsory{
    {"row_op.compulsory_bytes", "bytes", "every input and the output once, and a norm's weights",
     StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};

struct RowOpLaunch : KernelLaunch, GemmTensors {
  RowOpShape shape;
  std::uint64_t input_stride = 0;  // bytes from one input tensor to the next
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class RowOpCta : public MainloopCta {
 public:
  RowOpCta(const RowOpLaunch& k, const CtaTask& t, int slot, SmContext& sm)
      : MainloopCta(t, 2, 1, sm), k_(k), slot_(slot) {}

 private:
  std::int64_t first() const { return k_.shape.first_row(task_.tile_m); }
  std::int64_t last() const { return k_.shape.last_row(task_.tile_m); }

  // The chunk's rows of the tensor at `base` (one run of whole rows, or one per causal row).
  void add_rows(std::uint64_t base, MemRequest& req) const {
    const RowOpShape& s = k_.shape;
    const int eb = input_bytes(k_.op.dtype);
    const std::uint64_t batch0 =
        base + std::uint64_t(task_.batch) * std::uint64_t(s.rows * s.n * eb);
    if (!s.causal) {
      req.runs.push_back(RowRun{batch0 + std::uint64_t(first() * s.n * eb),
                                std::uint32_t((last() - first()) * s.n * eb), 1, 0});
      return;
    }
    for (std::int64_t i = first(); i < last(); ++i)
      req.runs.push_back(
          RowRun{batch0 + std::uint64_t(i * s.n * eb), std::uint32_t(s.row_length(i) * eb), 1, 0});
  }

  Start start(Cycle now) override {
    issue_prologue(now);
    return Start::Ready;
  }

  void issue_stage_load(int, Cycle) override {
    MemRequest& req = loads_[0];
    req.reset();
    for (int i = 0; i < k_.shape.info.inputs; ++i)
      add_rows(k_.base.a + std::uint64_t(i) * k_.input_stride, req);
    // A norm's weight and bias: n elements each, the same for every chunk (L2 hits).
    if (k_.shape.info.per_row_params)
      req.runs.push_back(
          RowRun{k_.base.b, std::uint32_t(2 * k_.shape.n * input_bytes(k_.op.dtype)), 1, 0});
    sm_.submit(req);
  }

  bool uses_fill_bytes() const override { return false; }

  void compute_ktile(Cycle barrier, StallCause, double) override {
    barrier_ready_ = barrier;
    mma_done_ = std::max(mma_done_, barrier);
    const Cycle dur = row_op_warp_cycles(k_.shape.info, k_.shape.elements(first(), last()));
    const int nsub = int(sm_.cuda.size()), warps = kRowOpThreadsPerCta / 32;
    for (int w = 0; w < warps; ++w) {
      const Cycle t = sm_.cuda[std::size_t((slot_ * warps + w) % nsub)].reserve(barrier, dur);
      mma_done_ = std::max(mma_done_, t + dur);
    }
  }

  // Outputs go from registers to global memory: nothing is staged in shared memory.
  double accumulator_tile_bytes() const override { return 0; }

  void issue_store(MemRequest& store) override {
    store.reset();
    store.write = true;
    add_rows(k_.base.c, store);
  }

  const RowOpLaunch& k_;
  int slot_;
};

std::unique_ptr<CtaProgram> RowOpLaunch::start_cta(const CtaTask& t, int slot,
                                                   SmContext& sm) const {
  return std::make_unique<RowOpCta>(*this, t, slot, sm);
}

KernelMapping row_op_mapping(const RowOpShape& s) {
  KernelMapping m;
  m.cta_m = int(s.rows_per_chunk);
  m.cta_n = int(std::min<std::int64_t>(s.n, 1 << 30));
  m.cta_k = 1;
  m.warp_m = 32;
  m.warp_n = 1;
  m.stages = 1;
  m.chosen_by = std::string("PyTorch-style ") + s.info.name + ": one CTA of " +
                std::to_string(kRowOpThreadsPerCta) + " threads per " +
                std::to_string(s.rows_per_chunk) + " row(s) of " + std::to_string(s.n);
  return m;
}

class RowOpKernel : public IKernel {
 public:
  std::string name() const override { return "row_op"; }
  std::string description() const override {
    return "a network's non-GEMM ops (softmax, layernorm, rmsnorm, gelu, silu_mul, add, "
           "embedding) on the CUDA cores: one 128-thread CTA per chunk of whole rows of at "
           "least 1024 elements, loaded once, computed in registers, stored once";
  }
  bool runs_row_ops() const override { return true; }
  int auto_priority() const override { return 5; }
  bool auto_pick(const GemmOp& op, const MappingRequest&) const override { return op.is_row_op(); }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    if (!op.is_row_op())
      return "the row_op kernel runs softmax, norms and elementwise ops, not GEMMs";
    if (occupancy(op, {}, env).ctas_per_sm < 1)
      return "the row_op kernel's CTA of 128 threads does not fit this SM";
    return "";
  }
  KernelMapping mapping(const GemmOp& op, const KernelEnv&) const override {
    return row_op_mapping(row_op_shape(op));
  }
  double estimate_cycles(const GemmOp& op, const KernelMapping&,
                         const KernelEnv& env) const override {
    return roofline_cycles(op, env, cuda_core_fma_per_cycle(env));
  }
  Occupancy occupancy(const GemmOp&, const KernelMapping&, const KernelEnv& env) const override {
    return thread_bound_occupancy(env, kRowOpThreadsPerCta);
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p;
    auto k = std::make_unique<RowOpLaunch>();
    k->shape = row_op_shape(op);
    const RowOpShape& s = k->shape;
    p.map = row_op_mapping(s);
    p.occupancy = occupancy(op, p.map, env);
    const double tensor = double(input_bytes(op.dtype)) * double(s.batch * s.rows * s.n);
    TensorAddresses addr;
    addr.a = allocate(tensor * s.info.inputs);  // the inputs, one after the other
    addr.b = allocate(2.0 * double(s.n) * input_bytes(op.dtype));  // a norm's weight, bias
    addr.c = allocate(double(output_bytes(op.dtype)) * double(s.batch * s.rows * s.n));
    static_cast<GemmTensors&>(*k) = GemmTensors(op, p.map, addr);
    k->input_stride = std::uint64_t(tensor);
    k->mma = MmaKind{op.dtype, {}};  // no tensor-core instruction; the dtype sets the bytes
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    for (std::int64_t b = 0; b < s.batch; ++b)
      for (std::int64_t c = 0; c < s.chunks_per_batch; ++c)
        k->ctas.push_back(CtaTask{int(c), 0, 0, int(b), 0, 1, 0});
    p.ctas = double(k->ctas.size());
    p.launches.push_back(std::move(k));
    return p;
  }

  void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv& env, const SmActivity&,
              OpResult& r) const override {
    const auto& k = static_cast<const RowOpLaunch&>(*plan.launches.front());
    report_cuda_core_peak(env, r);
    r.on_cuda_cores = true;
    r.instruction = std::string(k.shape.info.name) + " (CUDA cores)";
    r.accumulation = "fp32";
    r.stats.set(kKind.info(), std::string(k.shape.info.name));
    r.stats.set(kElements.info(), std::int64_t(k.shape.batch * k.shape.elements(0, k.shape.rows)));
    r.stats.set(kCompulsory.info(), op.min_bytes());
  }
};

const KernelRegistrar<RowOpKernel> registered;

}  // namespace

}  // namespace stcsim
