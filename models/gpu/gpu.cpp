#include "models/gpu/gpu.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

Gpu::Gpu(sc_core::sc_module_name name, const HardwareSections& hw, const std::string& gpu_name,
         bool light_kernels)
    : sc_module(name) {
  gpu_ = GpuSpec::from(hw.at("gpu").params);
  run_mhz_ = gpu_.run_clock_mhz(light_kernels);
  sm_ = SmSpec::from(hw.at("sm").params);
  mapping_req_ = MappingRequest::from(hw.at("mapping").params);
  BuildContext ctx{run_mhz_, gpu_.clock_mhz, gpu_.measured_run_clock_mhz(light_kernels)};
  const auto& tc = hw.at("tensor_core");
  tc_proto_ = Registry<ITensorCore>::create(tc.impl, tc.params, ctx);
  const auto& sm = hw.at("smem");
  smem_proto_ = Registry<ISharedMemory>::create(sm.impl, sm.params, ctx);
  const auto& tma = hw.at("tma");
  tma_proto_ = Registry<ITma>::create(tma.impl, tma.params, ctx);
  const auto& power = hw.at("power");
  power_ = Registry<IPower>::create(power.impl, power.params, ctx);
  const auto& l2 = hw.at("l2");
  const auto& dram = hw.at("dram");
  mem_ = std::make_unique<MemorySystem>("mem", gpu_.num_sms, sm_.l2_link_bytes_per_cycle,
                                        Registry<IL2Cache>::create(l2.impl, l2.params, ctx),
                                        Registry<IDram>::create(dram.impl, dram.params, ctx));
  sched_ = std::make_unique<CtaScheduler>("cta_scheduler", gpu_.num_sms);
  env_.reset(new KernelEnv{gpu_.num_sms, gpu_.clock_mhz, sm_, *tc_proto_, *smem_proto_, *tma_proto_,
                           mapping_req_, mem_->l2().bytes_per_cycle(),
                           mem_->dram().sustained_bytes_per_cycle(),
                           double(mem_->l2().hit_latency()), gpu_name});
  for (int i = 0; i < gpu_.num_sms; ++i)
    sms_.push_back(std::make_unique<Sm>(("sm" + std::to_string(i)).c_str(), i, sm_, *tc_proto_,
                                        *smem_proto_, *tma_proto_, *mem_, *sched_));
  SC_THREAD(driver);
}

std::vector<std::string> Gpu::traceable_signals(int num_sms) {
  std::vector<std::string> out{"mem.inflight_requests"};
  for (int i = 0; i < num_sms; ++i) out.push_back("sm" + std::to_string(i) + ".active_ctas");
  return out;
}

void Gpu::trace(sc_core::sc_trace_file* tf, const std::vector<std::string>& names) {
  const auto all = traceable_signals(gpu_.num_sms);
  for (const auto& n : names) {
    if (n == "all") {
      trace(tf, all);
      continue;
    }
    if (n == "mem.inflight_requests") {
      mem_->trace_signals = true;
      sc_core::sc_trace(tf, mem_->inflight_requests, n);
      continue;
    }
    bool found = false;
    for (int i = 0; i < gpu_.num_sms && !found; ++i)
      if (n == "sm" + std::to_string(i) + ".active_ctas") {
        sms_[i]->trace_signals = true;
        sc_core::sc_trace(tf, sms_[i]->active_ctas, n);
        found = true;
      }
    if (!found)
      throw InputError("--vcd-signals: unknown signal '" + n +
                       "' (mem.inflight_requests, sm<i>.active_ctas for i < " +
                       std::to_string(gpu_.num_sms) + ", or all)");
  }
}

double Gpu::peak_tflops(const MmaKind& k) const { return env_->peak_tflops(k); }

double Gpu::peak_products_per_second(const MmaKind& k) const {
  return env_->peak_products_per_second(k);
}

const IKernel& Gpu::kernel_for(const GemmOp& op) const {
  return KernelRegistry::choose(op, mapping_req_, *env_);
}

KernelMapping Gpu::mapping_for(const GemmOp& op) const { return kernel_for(op).mapping(op, *env_); }

void Gpu::check_op(const GemmOp& op) const {
  if (op.m <= 0 || op.n <= 0 || op.k <= 0 || op.batch <= 0)
    throw InputError(op.name + ": GEMM dimensions and batch must be positive");
  mapping_for(op);  // the kernel can run it and its mapping fits this SM
}

std::uint64_t Gpu::allocate(double bytes) {
  // Like cudaMalloc: every tensor starts on a fresh 2 MiB boundary.
  const std::uint64_t align = 2u << 20;
  const std::uint64_t a = next_addr_;
  next_addr_ += (std::uint64_t(bytes) + align - 1) / align * align + align;
  return a;
}

Gpu::Snapshot Gpu::snapshot() const {
  Snapshot s;
  for (const auto& sm : sms_) {
    for (const auto& p : sm->pipes()) {
      s.tensor += p->busy_cycles();
      s.tensor_work += p->work_cycles();
    }
    s.cuda += sm->cuda_core_busy_cycles();
    s.l1_sectors += sm->counters().l1_sectors;
    s.l1_hits += sm->counters().l1_hit_sectors;
    s.smem += sm->smem().busy_cycles();
    s.index_wait += sm->counters().index_wait_cycles;
    s.cta_cycles += sm->counters().cta_cycles;
    for (int i = 0; i < int(StallCause::kCount); ++i)
      s.stalls.cycles[i] += sm->counters().stalls.cycles[i];
  }
  s.l2 = mem_->l2().busy_cycles();
  s.dram = mem_->dram().busy_cycles();
  s.link = mem_->link_busy_cycles();
  s.mem = mem_->counters();
  return s;
}

void Gpu::run_kernel(const KernelLaunch& k, std::function<void(std::size_t)> on_dispatch) {
  k.begin_run();
  // A launch starts with every SM's L1 invalidated: it holds global data without coherence
  // across SMs, so nothing cached by an earlier kernel is trusted.
  for (auto& sm : sms_) sm->invalidate_l1();
  sched_->start(&k, std::move(on_dispatch));
  sc_core::sc_event_and_list all_done;
  for (auto& sm : sms_) {
    sm->launch(&k, now_cycles());
    all_done &= sm->done;
  }
  wait(all_done);
  sched_->start(nullptr);  // the launch is over: no CTA, no dispatch hook past its life
  Cycle writes = 0;
  for (auto& sm : sms_) writes = std::max(writes, sm->last_write_done());
  wait_until(writes);  // the kernel ends when its last store reaches the L2
}

namespace {

std::string map_key(const KernelMapping& m) {
  std::string k;
  for (int v : {m.cta_m, m.cta_n, m.cta_k, m.warp_m, m.warp_n, m.stages, m.swizzle, m.split_k,
                int(m.layout), m.cluster_m, m.cluster_n, m.b_fragment_buffers})
    k += std::to_string(v) + ',';
  return k + m.schedule + ',' + m.mma_order + ',' + m.barrier_point + ',' + m.epilogue_staging +
         ',' + m.loop.key() + ',' + std::to_string(m.mainloop_parts);
}

// The convolution's geometry, which a direct convolution kernel's addresses follow.
std::string conv_key(const GemmOp& op) {
  if (!op.conv.present()) return "";
  std::string s = "|conv";
  for (std::int64_t v : {op.conv.images, op.conv.in_h, op.conv.in_w, op.conv.kernel_h,
                         op.conv.kernel_w, op.conv.stride, op.conv.padding, op.conv.dilation})
    s += ' ' + std::to_string(v);
  return s;
}

// Whatever of an op its timing depends on, with the kernel that runs it and its mapping
// (weights values and the functional mode's mask do not change a cycle).
std::string memo_key(const GemmOp& op, const IKernel& kernel, const KernelMapping& map) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the block map
  auto mix = [&h](std::int64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ std::uint64_t(v & 0xff)) * 1099511628211ull;
  };
  if (op.block_map) {
    const BlockMap& b = *op.block_map;
    for (std::int64_t v : {std::int64_t(b.r), std::int64_t(b.c), b.block_rows, b.block_cols})
      mix(v);
    for (int v : b.row_ptr) mix(v);
    for (int v : b.col_idx) mix(v);
  }
  return std::string(kernel.name()) + '|' + std::to_string(op.m) + 'x' + std::to_string(op.n) +
         'x' + std::to_string(op.k) + 'b' + std::to_string(op.batch) + '|' + op.kind().str() + '|' +
         map_key(map) + "|bm" + (op.block_map ? std::to_string(h) : std::string("-")) +
         conv_key(op) +
         (op.causal != Causal::None ? std::string("|causal ") + causal_name(op.causal) : "") +
         (op.is_row_op() ? std::string("|row ") + row_op_info(op.row_op).name : "");
}

constexpr const char* kGpuDriver = "gpu";
const OpStat memoized_stat{
    {"memoized", "0/1",
     "1: the result of an identical GEMM earlier in the run, reused instead of simulated "
     "again (--no-memo turns reuse off)",
     StatTotal::kNone, kGpuDriver},
    computed<OpResult>([](const OpResult&) { return std::int64_t(1); }),
    [](const OpResult& r) { return r.memoized; }};
const OpStat analytic_stat{
    {"analytic", "0/1",
     "1: cycles from the kernel's closed-form estimate (--mode analytic), not simulated; the "
     "memory, stall and utilisation stats are absent or zero",
     StatTotal::kNone, kGpuDriver},
    computed<OpResult>([](const OpResult&) { return std::int64_t(1); }),
    [](const OpResult& r) { return r.analytic; }};

}  // namespace

void Gpu::set_l2_policy(L2Policy p) {
  if (p != L2Policy::kFlush && mapping_req_.policy == "exhaustive")
    throw InputError(std::string("mapping.policy exhaustive simulates each candidate once from a "
                                 "flushed L2, which --l2 ") +
                     to_string(p) +
                     " would not give: use --l2 flush (the default) or another policy");
  l2_policy_ = p;
}

void Gpu::flush_between_ops() {
  wait_until(mem_->idle_at());  // untimed: the harness's flush waits for it too
  mem_->invalidate_l2();
  for (auto& sm : sms_) sm->invalidate_l1();
  next_addr_ = kFirstAddr;
}

void Gpu::driver() {
  if (!ubench_.empty()) {
    run_microbenchmarks();
    return;
  }
  std::string previous_key;  // under warm, the state an op meets is what the last one left
  for (const auto& op : ops_) {
    const IKernel& kernel = kernel_for(op);
    if (l2_policy_ != L2Policy::kWarm)
      flush_between_ops();
    else if (cold_l2_per_op_)
      mem_->invalidate_l2();
    // Planned either way, so that later ops get the addresses a full run gives them.
    const KernelPlan plan =
        kernel.plan(op, *env_, [this](double bytes) { return allocate(bytes); });
    std::string key;
    if (memoize_) {
      key = memo_key(op, kernel, plan.map) + "|l2 " + to_string(l2_policy_);
      const std::string own = key;
      if (l2_policy_ == L2Policy::kWarm && !cold_l2_per_op_) key += "|after " + previous_key;
      previous_key = own;
      const auto hit = memo_.find(key);
      if (hit != memo_.end()) {
        OpResult r = results_[hit->second];
        r.op = op;
        r.memoized = true;
        results_.push_back(r);
        if (on_op_done_) on_op_done_(results_.size(), ops_.size());
        continue;
      }
    }
    // Under repeat the timed run follows an untimed one of the same plan (same addresses).
    if (l2_policy_ == L2Policy::kRepeat && !analytic_) run_launches(plan);
    results_.push_back(analytic_                             ? estimate(op, kernel, plan)
                       : mapping_req_.policy == "exhaustive" ? simulate_fastest(op, kernel, plan)
                                                             : simulate(op, kernel, plan));
    if (memoize_) memo_.emplace(key, results_.size() - 1);
    if (on_op_done_) on_op_done_(results_.size(), ops_.size());
  }
  // No sc_stop(): with the driver done and every SM waiting for a launch, the
  // event queue empties and sc_start() returns.
}

Cycle Gpu::launch_cycles() const {
  return Cycle(std::llround(gpu_.kernel_launch_ns * run_mhz_ / 1000.0));
}

void Gpu::run_launches(const KernelPlan& plan) {
  for (const auto& launch : plan.launches) {
    if (launch_cycles() > 0) wait_until(now_cycles() + launch_cycles());
    run_kernel(*launch);
  }
}

OpResult Gpu::simulate(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan) {
  start_snap_ = snapshot();
  const Cycle start = now_cycles();
  // Each launch waits out the front end's launch latency first (gpu.kernel_launch_ns).
  const Cycle launch_cycles = this->launch_cycles();
  // Steady-state mode cuts only a single launch of uniform CTAs (a follow-up launch, as
  // split-K's reduction, would start from a state the cut run does not reach).
  const bool steady = steady_ && plan.launches.size() == 1 && kernel.uniform_ctas(op);
  SteadyOutcome outcome;
  Snapshot growth;
  for (const auto& launch : plan.launches) {
    if (launch_cycles > 0) wait_until(now_cycles() + launch_cycles);
    if (steady)
      run_kernel_steady(*launch, outcome, growth);
    else
      run_kernel(*launch);
  }
  if (steady_ && !steady)
    outcome.fallback = plan.launches.size() != 1
                           ? "more than one launch (split-K's reduction or a follow-up kernel)"
                           : "steady mode cuts tensor-core GEMM kernels of uniform CTAs; " +
                                 kernel.name() +
                                 "'s CTAs are uneven here (kept blocks, nonzeros, a causal "
                                 "mask) or it is not such a kernel";
  OpResult r = collect(op, kernel, plan, start, now_cycles(), double(outcome.periods),
                       outcome.period_cycles, outcome.cut ? &growth : nullptr);
  if (steady_) report_steady(outcome, r);  // slots only: nothing computed from them
  return r;
}

OpResult Gpu::planned_result(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan,
                             double cycles) const {
  OpResult r;
  r.op = op;
  r.kernel = kernel.name();
  r.mapping = plan.map;
  r.occupancy = plan.occupancy;
  r.ctas = plan.ctas;
  r.waves = r.ctas / (double(gpu_.num_sms) * std::max(1, r.occupancy.ctas_per_sm));
  r.cycles = std::max(1.0, cycles);
  r.seconds = r.cycles / (run_mhz_ * 1e6);
  r.flops = op.flops();
  r.peak_tflops = peak_tflops(op.kind());
  r.products = op.products();
  r.peak_products_per_second = peak_products_per_second(op.kind());
  r.dot_unit = tc_proto_->dot_unit(op.kind());
  r.instruction = op.kind().str();
  return r;
}

OpResult Gpu::estimate(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan) const {
  const double launch = gpu_.kernel_launch_ns * run_mhz_ / 1000.0;
  OpResult r = planned_result(op, kernel, plan,
                              std::ceil(kernel.estimate_cycles(op, plan.map, *env_)) +
                                  std::round(launch) * double(plan.launches.size()));
  r.analytic = true;
  kernel.report(op, plan, *env_, SmActivity{}, r);
  if (power_->present()) {
    // Energy from the work the op must do: its products, and its compulsory bytes once
    // through the L2 and DRAM (a lower bound of what a simulation counts).
    PowerActivity a;
    a.dtype = op.dtype;
    a.cycles = r.cycles;
    (r.on_cuda_cores ? a.cuda_fmas : a.tensor_products) = r.products;
    a.sparse = !r.on_cuda_cores && !op.sparsity.dense();
    a.l2_bytes = a.dram_bytes = op.min_bytes();
    r.power = power_->settle(a);
    r.seconds = r.cycles / (r.power.clock_mhz * 1e6);
  }
  StatRegistry<OpResult>::recompute(r);
  return r;
}

OpResult Gpu::simulate_fastest(const GemmOp& op, const IKernel& kernel, const KernelPlan& chosen) {
  std::vector<KernelMapping> cands = kernel.ranked_mappings(op, *env_, mapping_req_.exhaustive_top);
  // The chooser's own pick too (its margin rule may prefer one outside the top by raw
  // estimate), so that exhaustive is never slower than chooser.
  auto same_schedule = [](const KernelMapping& a, const KernelMapping& b) {
    return a.cta_m == b.cta_m && a.cta_n == b.cta_n && a.cta_k == b.cta_k && a.warp_m == b.warp_m &&
           a.warp_n == b.warp_n && a.stages == b.stages && a.split_k == b.split_k &&
           a.swizzle == b.swizzle && a.layout == b.layout &&
           a.b_fragment_buffers == b.b_fragment_buffers && a.mma_order == b.mma_order &&
           a.barrier_point == b.barrier_point && a.epilogue_staging == b.epilogue_staging &&
           a.loop == b.loop && a.mainloop_parts == b.mainloop_parts;
  };
  if (!cands.empty() && std::none_of(cands.begin(), cands.end(), [&](const KernelMapping& c) {
        return same_schedule(c, chosen.map);
      })) {
    cands.push_back(chosen.map);
    cands.back().chosen_by = "the chooser's pick, " + chosen.map.chosen_by;
  }
  if (cands.empty()) {
    OpResult r = simulate(op, kernel, chosen);
    r.mapping.chosen_by += mapping_req_.tile_given()
                               ? "; exhaustive: the tile was given, not searched"
                               : "; exhaustive: " + std::string(kernel.name()) +
                                     "'s mapping is not searched by simulation";
    return r;
  }
  std::optional<OpResult> best;
  std::size_t best_rank = 0;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    // Each candidate meets what the op itself would: a flushed L2, the first addresses
    // (the chooser's plan, made before, took some).
    flush_between_ops();
    const KernelMapping& c = cands[i];
    MappingRequest pinned = mapping_req_;
    pinned.policy = "chooser";
    pinned.cta_m = c.cta_m, pinned.cta_n = c.cta_n, pinned.cta_k = c.cta_k;
    pinned.warp_m = c.warp_m, pinned.warp_n = c.warp_n;
    pinned.stages = c.stages, pinned.split_k = c.split_k, pinned.swizzle = c.swizzle;
    pinned.layout = c.layout, pinned.b_fragment_buffers = c.b_fragment_buffers;
    pinned.mma_order = c.mma_order, pinned.mainloop_parts = c.mainloop_parts;
    pinned.barrier_point = c.barrier_point;
    pinned.epilogue_staging = c.epilogue_staging;
    pinned.loop = c.loop;
    const KernelEnv env{env_->num_sms,
                        env_->clock_mhz,
                        env_->sm,
                        env_->tc,
                        env_->smem,
                        env_->tma,
                        pinned,
                        env_->l2_bytes_per_cycle,
                        env_->dram_bytes_per_cycle,
                        env_->l2_hit_latency,
                        env_->gpu_name};
    const KernelPlan plan = kernel.plan(op, env, [this](double bytes) { return allocate(bytes); });
    OpResult r = simulate(op, kernel, plan);
    if (!best || r.seconds < best->seconds) best = std::move(r), best_rank = i;
  }
  best->mapping.chosen_by = "exhaustive: fastest of " + std::to_string(cands.size()) +
                            " simulated (the estimate's best " +
                            std::to_string(mapping_req_.exhaustive_top) +
                            " and the chooser's pick), " + cands[best_rank].chosen_by;
  return *best;
}

OpResult Gpu::collect(const GemmOp& op, const IKernel& kernel, const KernelPlan& plan, Cycle start,
                      Cycle end, double periods, double period_cycles,
                      const Snapshot* period_growth) const {
  Snapshot now = snapshot();
  if (period_growth) now.add_scaled(*period_growth, Snapshot{}, periods);
  const Snapshot& s0 = start_snap_;
  OpResult r =
      planned_result(op, kernel, plan, double(end - start) + std::round(periods * period_cycles));
  const double pipes = double(gpu_.num_sms) * sm_.sub_cores;
  r.pipe_cycles = r.cycles * pipes;
  r.pipe_busy = now.tensor - s0.tensor;
  r.util_tensor = r.pipe_busy / r.pipe_cycles;
  r.util_cuda = (now.cuda - s0.cuda) / r.pipe_cycles;
  const double l1 = now.l1_sectors - s0.l1_sectors;
  r.l1_hit_rate = l1 > 0 ? (now.l1_hits - s0.l1_hits) / l1 : 0;
  r.util_smem = (now.smem - s0.smem) / (r.cycles * gpu_.num_sms);
  r.util_l2 = (now.l2 - s0.l2) / (r.cycles * mem_->l2().slices());
  r.util_dram = (now.dram - s0.dram) / (r.cycles * mem_->dram().channels());
  r.util_l2_link = (now.link - s0.link) / (r.cycles * gpu_.num_sms * 2);
  const double reads = now.mem.l2_read_sectors - s0.mem.l2_read_sectors;
  const double misses = now.mem.l2_read_miss_sectors - s0.mem.l2_read_miss_sectors;
  r.l2_read_hit_rate = reads > 0 ? 1.0 - misses / reads : 0;
  r.dram_read_bytes = now.mem.dram_read_bytes - s0.mem.dram_read_bytes;
  r.dram_write_bytes = now.mem.dram_write_bytes - s0.mem.dram_write_bytes;
  for (int i = 0; i < int(StallCause::kCount); ++i)
    r.stalls.cycles[i] = now.stalls.cycles[i] - s0.stalls.cycles[i];
  SmActivity act;
  act.index_wait_cycles = now.index_wait - s0.index_wait;
  act.cta_cycles = now.cta_cycles - s0.cta_cycles;
  kernel.report(op, plan, *env_, act, r);
  if (power_->present()) {
    // The settled (or measured) clock (models/power): the same cycles, in seconds there.
    r.power = power_->settle(power_activity(r, now, s0));
    r.seconds = r.cycles / (r.power.clock_mhz * 1e6);
  }
  StatRegistry<OpResult>::recompute(r);  // tflops, dram_gbps, limiter (op_stats.cpp)
  return r;
}

PowerActivity Gpu::power_activity(const OpResult& r, const Snapshot& now,
                                  const Snapshot& s0) const {
  PowerActivity a;
  a.dtype = r.op.dtype;
  a.cycles = r.cycles;
  if (r.on_cuda_cores) {
    a.cuda_fmas = r.products;  // one FMA per real product of the pruned weights
  } else {
    // What the tensor pipes executed, padding of edge tiles included: their instructions'
    // own cycles (not what a register path added to their occupancy) at the rate of real
    // multiplies the kernel's instruction runs at.
    const double pipes = double(gpu_.num_sms) * sm_.sub_cores;
    a.tensor_products = (now.tensor_work - s0.tensor_work) * r.peak_products_per_second /
                        (gpu_.clock_mhz * 1e6 * pipes);
    a.sparse = !r.op.sparsity.dense();
  }
  a.smem_bytes = (now.smem - s0.smem) * smem_proto_->bytes_per_cycle();
  a.l2_bytes = (now.mem.l2_read_sectors - s0.mem.l2_read_sectors + now.mem.l2_write_sectors -
                s0.mem.l2_write_sectors) *
               mem_->l2().sector_bytes();
  a.dram_bytes = r.dram_read_bytes + r.dram_write_bytes;
  return a;
}

}  // namespace stcsim
