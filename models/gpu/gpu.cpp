#include "models/gpu/gpu.h"

#include <algorithm>
#include <cmath>

#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

std::string pick_limiter(const OpResult& r) {
  const std::pair<const char*, double> u[] = {{"tensor", r.util_tensor},
                                              {"smem", r.util_smem},
                                              {"l2", r.util_l2},
                                              {"dram", r.util_dram},
                                              {"l2_link", r.util_l2_link},
                                              {"cuda_cores", r.util_cuda}};
  auto best = u[0];
  for (const auto& x : u)
    if (x.second > best.second) best = x;
  return best.second >= 0.5 ? best.first : "latency";
}

Gpu::Gpu(sc_core::sc_module_name name, const HardwareSections& hw) : sc_module(name) {
  gpu_ = GpuSpec::from(hw.at("gpu").params);
  sm_ = SmSpec::from(hw.at("sm").params);
  mapping_req_ = MappingRequest::from(hw.at("mapping").params);
  BuildContext ctx{gpu_.clock_mhz};
  const auto& tc = hw.at("tensor_core");
  tc_proto_ = Registry<ITensorCore>::create(tc.impl, tc.params, ctx);
  const auto& sm = hw.at("smem");
  smem_proto_ = Registry<ISharedMemory>::create(sm.impl, sm.params, ctx);
  const auto& l2 = hw.at("l2");
  const auto& dram = hw.at("dram");
  mem_ = std::make_unique<MemorySystem>("mem", gpu_.num_sms, sm_.l2_link_bytes_per_cycle,
                                        Registry<IL2Cache>::create(l2.impl, l2.params, ctx),
                                        Registry<IDram>::create(dram.impl, dram.params, ctx));
  sched_ = std::make_unique<CtaScheduler>("cta_scheduler", gpu_.num_sms);
  for (int i = 0; i < gpu_.num_sms; ++i)
    sms_.push_back(std::make_unique<Sm>(("sm" + std::to_string(i)).c_str(), i, sm_, *tc_proto_,
                                        *smem_proto_, *mem_, *sched_));
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
      throw InputError("--vcd-signals: unknown signal '" + n + "' (mem.inflight_requests, sm<i>.active_ctas for i < " +
                       std::to_string(gpu_.num_sms) + ", or all)");
  }
}

double Gpu::peak_tflops(const MmaKind& k) const {
  if (!tc_proto_->supports(k)) return 0;
  // Dense-equivalent: an mma.sp counts the FMA of the dense GEMM it stands for.
  const double fma_per_cycle = double(k.shape().fma()) / tc_proto_->initiation_interval(k);
  return 2.0 * fma_per_cycle * sm_.sub_cores * gpu_.num_sms * gpu_.clock_mhz * 1e6 / 1e12;
}

double Gpu::peak_products_per_second(const MmaKind& k) const {
  if (!tc_proto_->supports(k)) return 0;
  return double(k.products()) / tc_proto_->initiation_interval(k) * sm_.sub_cores * gpu_.num_sms *
         gpu_.clock_mhz * 1e6;
}

KernelMapping Gpu::mapping_for(const GemmOp& op) const {
  if (op.csr_cuda_cores)
    return csr_mapping(csr_tile_cols(kernel_problem(op).n, sm_.fp32_lanes_per_sub_core, op.dtype));
  const MmaKind kind = op.kind();
  ChooserHardware hw;
  hw.num_sms = gpu_.num_sms;
  hw.sm = sm_;
  hw.mma_fma_per_cycle_per_sm =
      double(kind.shape().fma()) / tc_proto_->initiation_interval(kind) * sm_.sub_cores;
  hw.l2_bytes_per_cycle = mem_->l2().bytes_per_cycle();
  hw.smem_bytes_per_cycle = smem_proto_->bytes_per_cycle();
  hw.dram_bytes_per_cycle = mem_->dram().sustained_bytes_per_cycle();
  hw.dram_latency_cycles = mem_->l2().hit_latency() * 2.0;
  return choose_mapping(kernel_problem(op), hw, mapping_req_);
}

void Gpu::check_op(const GemmOp& op) const {
  if (op.m <= 0 || op.n <= 0 || op.k <= 0 || op.batch <= 0)
    throw InputError(op.name + ": GEMM dimensions and batch must be positive");
  if (op.csr_cuda_cores) {
    if (!op.block_map || op.block_map->r != 1 || op.block_map->c != 1 || !op.sparsity.dense())
      throw InputError(op.name + ": the CSR kernel needs an unstructured (1x1) weight mask and no N:M pattern");
    if (csr_occupancy().ctas_per_sm < 1)
      throw InputError(op.name + ": the CSR kernel's CTA of " + std::to_string(mapping_for(op).threads()) +
                       " threads does not fit this SM (sm.max_threads " + std::to_string(sm_.max_threads) + ")");
    return;
  }
  if (!tc_proto_->supports(op.kind()))
    throw InputError(op.name + ": this GPU's tensor cores have " + tc_proto_->unsupported_reason(op.kind()));
  mapping_for(op);
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
    for (const auto& p : sm->pipes()) s.tensor += p->busy_cycles();
    s.cuda += sm->cuda_core_busy_cycles();
    s.l1_sectors += sm->counters().l1_sectors;
    s.l1_hits += sm->counters().l1_hit_sectors;
    s.smem += sm->smem().busy_cycles();
    s.index_wait += sm->counters().index_wait_cycles;
    s.cta_cycles += sm->counters().cta_cycles;
    for (int i = 0; i < int(StallCause::kCount); ++i) s.stalls.cycles[i] += sm->counters().stalls.cycles[i];
  }
  s.l2 = mem_->l2().busy_cycles();
  s.dram = mem_->dram().busy_cycles();
  s.link = mem_->link_busy_cycles();
  s.mem = mem_->counters();
  return s;
}

void Gpu::run_kernel(const KernelLaunch& k) {
  sched_->start(&k);
  sc_core::sc_event_and_list all_done;
  for (auto& sm : sms_) {
    sm->launch(&k, now_cycles());
    all_done &= sm->done;
  }
  wait(all_done);
  Cycle writes = 0;
  for (auto& sm : sms_) writes = std::max(writes, sm->last_write_done());
  wait_until(writes);  // the kernel ends when its last store reaches the L2
}

void Gpu::driver() {
  for (const auto& op : ops_) {
    if (op.csr_cuda_cores) {
      run_csr_op(op);
      continue;
    }
    const KernelMapping map = mapping_for(op);
    const MmaKind kind = op.kind();
    const GemmOp kp = kernel_problem(op);
    const Occupancy occ = occupancy(map, sm_, kind);
    TensorAddresses addr;
    const double nb = op.batch;
    addr.a = allocate(nb * kp.m * kp.k * kind.a_bytes_per_k());
    // Metadata is padded to whole tiles (stored tile by tile).
    addr.meta = kind.sparsity.dense() ? 0 : allocate(nb * (kp.m + map.cta_m) * (kp.k + map.cta_k) * kind.meta_bytes_per_k());
    addr.b = allocate(nb * kp.n * kp.k * input_bytes(op.dtype));
    addr.c = allocate(nb * op.m * op.n * output_bytes(op.dtype));
    addr.workspace = map.split_k > 1 ? allocate(nb * 4.0 * map.split_k * op.m * op.n) : 0;
    if (op.block_sparse()) addr.index = allocate(4.0 * (op.block_map->block_rows + 1 + op.block_map->nnz()));
    if (cold_l2_per_op_) mem_->invalidate_l2();
    const KernelLaunch k = make_gemm_kernel(op, map, occ.ctas_per_sm, *smem_proto_, addr);
    start_snap_ = snapshot();
    const Cycle start = now_cycles();
    run_kernel(k);
    if (map.split_k > 1) {
      const KernelLaunch red = make_reduce_kernel(k);
      run_kernel(red);
    }
    results_.push_back(collect(op, k, start, now_cycles()));
  }
  // No sc_stop(): with the driver done and every SM waiting for a launch, the
  // event queue empties and sc_start() returns.
}

void Gpu::run_csr_op(const GemmOp& op) {
  const KernelMapping map = mapping_for(op);
  const GemmOp kp = kernel_problem(op);
  const double nb = op.batch, eb = input_bytes(op.dtype);
  const double nnz = double(op.block_map->nnz());
  TensorAddresses addr;
  addr.a = allocate(nnz * eb);                                       // values
  addr.index = allocate(4.0 * (double(op.block_map->block_rows) + 1 + nnz));  // row_ptr, col_idx
  addr.b = allocate(nb * kp.n * kp.k * eb);                         // X^T, K-major
  addr.c = allocate(nb * op.m * op.n * output_bytes(op.dtype));     // Y^T
  if (cold_l2_per_op_) mem_->invalidate_l2();
  const KernelLaunch k = make_csr_kernel(op, map, csr_occupancy().ctas_per_sm, sm_.fp32_lanes_per_sub_core, addr);
  start_snap_ = snapshot();
  const Cycle start = now_cycles();
  run_kernel(k);
  results_.push_back(collect(op, k, start, now_cycles()));
}

Occupancy Gpu::csr_occupancy() const {
  // 4 warps, ~1.5 KB of shared memory, few registers: threads bound it.
  const KernelMapping m = csr_mapping(64);  // the CTA's threads do not depend on its width
  const int by_threads = sm_.max_threads / m.threads();
  return by_threads <= sm_.max_ctas ? Occupancy{by_threads, "threads"} : Occupancy{sm_.max_ctas, "ctas"};
}

OpResult Gpu::collect(const GemmOp& op, const KernelLaunch& k, Cycle start, Cycle end) const {
  const Snapshot now = snapshot();
  const Snapshot& s0 = start_snap_;
  OpResult r;
  r.op = op;
  r.mapping = k.map;
  r.occupancy = k.csr ? csr_occupancy() : occupancy(k.map, sm_, op.kind());
  r.ctas = double(k.ctas.size());
  r.waves = r.ctas / (double(gpu_.num_sms) * std::max(1, r.occupancy.ctas_per_sm));
  r.cycles = std::max(1.0, end - start);
  r.seconds = r.cycles / (gpu_.clock_mhz * 1e6);
  r.flops = op.flops();
  r.tflops = r.flops / r.seconds / 1e12;
  r.peak_tflops = peak_tflops(op.kind());
  r.products = op.products();
  r.peak_products_per_second = peak_products_per_second(op.kind());
  if (k.csr) {  // CUDA cores: FP32 FMA lanes
    r.peak_products_per_second = double(sm_.fp32_lanes_per_sub_core) * sm_.sub_cores * gpu_.num_sms * gpu_.clock_mhz * 1e6;
    r.peak_tflops = 2.0 * r.peak_products_per_second / 1e12;
  }
  r.dot_unit = tc_proto_->dot_unit(op.kind());
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
  r.dram_gbps = (r.dram_read_bytes + r.dram_write_bytes) / r.seconds / 1e9;
  for (int i = 0; i < int(StallCause::kCount); ++i) r.stalls.cycles[i] = now.stalls.cycles[i] - s0.stalls.cycles[i];
  r.limiter = pick_limiter(r);
  if (k.csr) {
    r.block_density = op.block_map->density();
    double mx = 0, sum = 0;
    for (const auto& p : k.csr_panels) {
      mx = std::max(mx, double(p.nnz));
      sum += double(p.nnz);
    }
    r.block_imbalance = sum > 0 ? mx / (sum / double(k.csr_panels.size())) : 1.0;
    const double wait = now.index_wait - s0.index_wait, life = now.cta_cycles - s0.cta_cycles;
    r.index_wait_cycles_per_cta = wait / std::max(1.0, r.ctas);
    r.index_wait_fraction = life > 0 ? wait / life : 0;
  }
  if (k.block_sparse) {
    const int tiles_m = int((k.op.m + k.map.cta_m - 1) / k.map.cta_m);
    const int tiles_n = int((k.op.n + k.map.cta_n - 1) / k.map.cta_n);
    r.block_density = op.block_map->density();
    r.block_imbalance = panel_imbalance(k.panels, tiles_m, k.op.batch, tiles_n);
    const double wait = now.index_wait - s0.index_wait, life = now.cta_cycles - s0.cta_cycles;
    r.index_wait_cycles_per_cta = wait / std::max(1.0, r.ctas);
    r.index_wait_fraction = life > 0 ? wait / life : 0;
  }
  return r;
}

}  // namespace stcsim
