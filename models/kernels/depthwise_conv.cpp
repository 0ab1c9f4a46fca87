// The depthwise (and grouped) convolution on the CUDA cores: a direct convolution over
// the NHWC input, the way TensorFlow's DepthwiseConv2dGPUKernelNHWC runs it
// (depthwise_plan.h has the launch). Frameworks never run a depthwise conv as `groups`
// GEMMs of N = 1 on the tensor cores; they run a kernel like this one.
//
// A CTA of 1024 threads makes grid-stride passes; each pass covers 1024 consecutive NHWC
// outputs. Its stage (pass, r) is filter row r of a pass: the input row segments the
// pass's windows cover at that row (all channels: NHWC keeps a row segment contiguous)
// and the filter's row r, read through the L1, so the L2 and the DRAM see the real
// input bytes with their halo overlap, not an im2col copy. The tap loop is unrolled (R
// and S are compile-time for 3x3; a thread's loads are independent), so a pass's R rows
// are in flight together and the next pass's rows load while this one computes. Each
// warp spends depthwise_cycles_per_tap per in-bounds tap of its outputs on its sub-core's
// FP32 pipe; a pass's outputs are stored once its last row is computed.
#include <algorithm>

#include "models/kernels/depthwise_plan.h"
#include "models/kernels/i_kernel.h"
#include "models/kernels/l1_gather.h"
#include "models/kernels/mainloop_cta.h"

namespace stcsim {

namespace {

constexpr const char* kProducer = "kernel depthwise_conv";
const OpStat kAlgorithm{{"depthwise.kernel", "-", "the algorithm", StatTotal::kNone, kProducer},
                        stat_slot<OpResult>()};
const OpStat kThreads{{"depthwise.threads_per_cta", "threads",
                       "threads of a CTA (one output each per pass)", StatTotal::kNone, kProducer},
                      stat_slot<OpResult>()};
const OpStat kPasses{
    {"depthwise.passes", "passes", "grid-stride passes of the busiest CTA (1024 outputs each)",
     StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};
const OpStat kCompulsory{
    {"depthwise.compulsory_bytes", "bytes", "the NHWC input, the filter and the output, each once",
     StatTotal::kNone, kProducer},
    stat_slot<OpResult>()};

struct DepthwiseLaunch : KernelLaunch, GemmTensors {
  DepthwiseShape shape;
  double cycles_per_tap = 0;  // per warp
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class DepthwiseCta : public MainloopCta {
 public:
  DepthwiseCta(const DepthwiseLaunch& k, const CtaTask& t, int slot, SmContext& sm)
      : MainloopCta(t, int(k.shape.conv.kernel_h) + 1,
                    k.shape.sweeps(t.tile_m) * int(k.shape.conv.kernel_h), sm),
        k_(k),
        rows_(int(k.shape.conv.kernel_h)),
        slot_(slot),
        l1_ready_(loads_.size(), 0),
        taps_(loads_.size(), 0) {
    stores_.reserve(std::size_t(k.shape.sweeps(t.tile_m)));  // submitted requests stay put
  }

 private:
  // The outputs [first, last) of pass `sweep`.
  std::pair<std::int64_t, std::int64_t> pass(int sweep) const {
    const std::int64_t first = k_.shape.first_output(task_.tile_m, sweep);
    return {first, std::min(k_.shape.outputs, first + kDepthwiseThreadsPerCta)};
  }

  Start start(Cycle now) override {
    if (ktiles_ == 0) return Start::NoWork;
    issue_prologue(now);  // the first pass's R rows at once
    return Start::Ready;
  }

  void issue_stage_load(int kt, Cycle now) override {
    const DepthwiseShape& s = k_.shape;
    const int eb = input_bytes(k_.op.dtype);
    const auto [first, last] = pass(kt / rows_);
    const std::int64_t r = kt % rows_;
    const DepthwisePassRow row = depthwise_pass_row(s, first, last, r, eb);
    MemRequest& req = loads_[std::size_t(kt) % loads_.size()];
    req.reset();
    for (const auto& [off, bytes] : row.input_runs)
      load_through_l1(sm_, k_.base.a + off, k_.base.a + off + bytes, req);
    // The filter's row r (HWC: S x Cout contiguous), read tap by tap with the input.
    const std::uint64_t filter_row =
        std::uint64_t(s.conv.kernel_w * s.out_channels * s.in_per_group * eb);
    const std::uint64_t f0 = k_.base.b + std::uint64_t(r) * filter_row;
    load_through_l1(sm_, f0, f0 + filter_row, req);
    // Every lane's two loads per tap cross the L1's data path.
    const double l1_bytes = 2.0 * row.taps * eb;
    const std::size_t slot = std::size_t(kt) % loads_.size();
    if (req.empty())
      req.done = now;  // all hits
    else
      sm_.submit(req);
    const Cycle l1_done = sm_.smem.write(now, l1_bytes);
    l1_ready_[slot] = std::max(l1_done, now + sm_.spec.l1_hit_latency_cycles);
    taps_[slot] = row.taps;
  }

  Cycle stage_ready(int stage) const override { return l1_ready_[std::size_t(stage)]; }

  bool uses_fill_bytes() const override { return false; }

  void compute_ktile(Cycle barrier, StallCause, double) override {
    const int sweep = kt_ / rows_, r = kt_ % rows_;
    // The previous pass's outputs are final: store them (the last pass's in the epilogue).
    if (r == 0 && sweep > 0) {
      stores_.emplace_back();
      store_pass(sweep - 1, stores_.back());
      sm_.submit(stores_.back());
    }
    barrier_ready_ = barrier;  // threads move on to the next row without a barrier
    mma_done_ = std::max(mma_done_, barrier);
    const auto [first, last] = pass(sweep);
    const double taps = taps_[std::size_t(kt_) % taps_.size()];  // from the stage's load
    if (taps == 0) return;  // the row lies in the padding for every output
    // 32 outputs per warp, each warp the pass's average in-bounds taps per output.
    const std::int64_t outputs = last - first;
    const int warps = int((outputs + 31) / 32);
    const Cycle dur = taps / double(outputs) * k_.cycles_per_tap;
    const int nsub = int(sm_.cuda.size());
    for (int w = 0; w < warps; ++w) {
      const Cycle t =
          sm_.cuda[std::size_t((slot_ * (kDepthwiseThreadsPerCta / 32) + w) % nsub)].reserve(
              barrier, dur);
      mma_done_ = std::max(mma_done_, t + dur);
    }
  }

  void store_pass(int sweep, MemRequest& store) const {
    const auto [first, last] = pass(sweep);
    const int ob = output_bytes(k_.op.dtype);
    store.reset();
    store.write = true;
    store.runs.push_back(
        RowRun{k_.base.c + std::uint64_t(first * ob), std::uint32_t((last - first) * ob), 1, 0});
  }

  // Outputs go from registers to global memory: nothing is staged in shared memory.
  double accumulator_tile_bytes() const override { return 0; }

  void issue_store(MemRequest& store) override {
    for (const MemRequest& s : stores_) sm_.last_write_done = std::max(sm_.last_write_done, s.done);
    store_pass(std::max(0, ktiles_ / rows_ - 1), store);
    if (ktiles_ == 0) store.runs.clear();
  }

  const DepthwiseLaunch& k_;
  int rows_;
  int slot_;
  std::vector<Cycle> l1_ready_;  // per stage buffer, when its L1 hits land
  std::vector<double> taps_;     // per stage buffer, the in-bounds taps of its pass row
  std::vector<MemRequest> stores_;
};

std::unique_ptr<CtaProgram> DepthwiseLaunch::start_cta(const CtaTask& t, int slot,
                                                       SmContext& sm) const {
  return std::make_unique<DepthwiseCta>(*this, t, slot, sm);
}

KernelMapping depthwise_mapping(const DepthwiseShape& s) {
  KernelMapping m;
  m.cta_m = kDepthwiseThreadsPerCta;  // outputs per pass
  m.cta_n = 1;
  m.cta_k = int(s.in_per_group * s.conv.taps());
  m.warp_m = 32;
  m.warp_n = 1;
  m.stages = int(s.conv.kernel_h);
  m.chosen_by = std::string("TensorFlow NHWC depthwise: one output per thread, ") +
                std::to_string(s.ctas) + " CTAs of 1024 threads in a grid-stride loop" +
                (s.compile_time_filter ? " (3x3 compile-time filter: one CTA per SM)" : "");
  return m;
}

class DepthwiseConv : public IKernel {
 public:
  std::string name() const override { return "depthwise_conv"; }
  std::string description() const override {
    return "direct depthwise/grouped convolution on the CUDA cores (TensorFlow's "
           "DepthwiseConv2dGPUKernelNHWC): one output per thread in a grid-stride loop of "
           "1024-thread CTAs, input and filter read through the L1, fp32 FMA per tap";
  }
  // Above every GEMM kernel: a depthwise conv is never a GEMM on a real GPU.
  int auto_priority() const override { return 4; }
  bool auto_pick(const GemmOp& op, const MappingRequest&) const override {
    return is_depthwise(op);
  }
  std::string cannot_run(const GemmOp& op, const KernelEnv& env) const override {
    const std::string why = depthwise_unsupported(op);
    if (!why.empty()) return why;
    if (occupancy(op, {}, env).ctas_per_sm < 1)
      return "the depthwise kernel's CTA of " + std::to_string(kDepthwiseThreadsPerCta) +
             " threads does not fit this SM (sm.max_threads " + std::to_string(env.sm.max_threads) +
             ")";
    return "";
  }
  KernelMapping mapping(const GemmOp& op, const KernelEnv& env) const override {
    return depthwise_mapping(depthwise_shape(op, env.num_sms));
  }
  double estimate_cycles(const GemmOp& op, const KernelMapping&,
                         const KernelEnv& env) const override {
    return roofline_cycles(op, env, cuda_core_fma_per_cycle(env));
  }
  Occupancy occupancy(const GemmOp&, const KernelMapping&, const KernelEnv& env) const override {
    // No shared memory; __launch_bounds__(1024, 2) caps registers so that two blocks fit:
    // threads bound it.
    return thread_bound_occupancy(env, kDepthwiseThreadsPerCta, kDepthwiseCtasPerSm);
  }

  KernelPlan plan(const GemmOp& op, const KernelEnv& env, const Allocate& allocate) const override {
    KernelPlan p;
    auto k = std::make_unique<DepthwiseLaunch>();
    k->shape = depthwise_shape(op, env.num_sms);
    const DepthwiseShape& s = k->shape;
    const ConvShape& c = s.conv;
    p.map = depthwise_mapping(s);
    p.occupancy = occupancy(op, p.map, env);
    const double eb = input_bytes(op.dtype);
    TensorAddresses addr;
    addr.a = allocate(eb * double(c.images * c.in_h * c.in_w * s.in_channels));  // input, NHWC
    addr.b = allocate(eb * double(s.out_channels * op.k));                       // filter, HWC
    addr.c = allocate(double(output_bytes(op.dtype)) *
                      double(c.images * c.out_h * c.out_w * s.out_channels));  // output, NHWC
    static_cast<GemmTensors&>(*k) = GemmTensors(op, p.map, addr);
    k->mma = MmaKind{op.dtype, {}};  // no tensor-core instruction; the dtype sets the bytes
    k->ctas_per_sm = p.occupancy.ctas_per_sm;
    k->cycles_per_tap = depthwise_cycles_per_tap(env.sm.fp32_lanes_per_sub_core, op.dtype);
    for (std::int64_t i = 0; i < s.ctas; ++i) k->ctas.push_back(CtaTask{int(i), 0, 0, 0, 0, 0, 0});
    p.ctas = double(k->ctas.size());
    p.launches.push_back(std::move(k));
    return p;
  }

  void report(const GemmOp& op, const KernelPlan& plan, const KernelEnv& env, const SmActivity&,
              OpResult& r) const override {
    const auto& k = static_cast<const DepthwiseLaunch&>(*plan.launches.front());
    report_cuda_core_peak(env, r);
    r.on_cuda_cores = true;
    r.instruction = op.dtype == Dtype::INT8 ? "s32 IMAD (CUDA cores)" : "fp32 FMA (CUDA cores)";
    // Each output accumulates its taps in fp32 FMAs in filter order (TensorFlow widens
    // 16-bit inputs to fp32, PseudoHalfType).
    r.accumulation = "ieee_sequential";
    r.stats.set(kAlgorithm.info(), std::string("direct NHWC depthwise convolution on CUDA cores"));
    r.stats.set(kThreads.info(), std::int64_t(k.shape.threads()));
    r.stats.set(kPasses.info(), std::int64_t(k.shape.sweeps(0)));
    r.stats.set(kCompulsory.info(), depthwise_compulsory_bytes(op));
  }
};

const KernelRegistrar<DepthwiseConv> registered;

}  // namespace

}  // namespace stcsim
