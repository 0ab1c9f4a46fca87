#include "sim/driver/run_driver.h"

#include <chrono>

#include <systemc>

#include "models/gpu/gpu.h"

namespace stcsim {

OpResult total_of(const std::vector<OpResult>& ops) {
  OpResult t;
  t.op.name = "total";
  double w = 0;
  for (const auto& r : ops) {
    t.cycles += r.cycles;
    t.seconds += r.seconds;
    t.flops += r.flops;
    t.pipe_cycles += r.pipe_cycles;
    t.pipe_busy += r.pipe_busy;
    t.dram_read_bytes += r.dram_read_bytes;
    t.dram_write_bytes += r.dram_write_bytes;
    t.ctas += r.ctas;
    for (int i = 0; i < int(StallCause::kCount); ++i) t.stalls.cycles[i] += r.stalls.cycles[i];
    t.util_tensor += r.util_tensor * r.cycles;
    t.util_smem += r.util_smem * r.cycles;
    t.util_l2 += r.util_l2 * r.cycles;
    t.util_dram += r.util_dram * r.cycles;
    t.util_l2_link += r.util_l2_link * r.cycles;
    t.l2_read_hit_rate += r.l2_read_hit_rate * r.cycles;
    t.peak_tflops = std::max(t.peak_tflops, r.peak_tflops);
    w += r.cycles;
  }
  if (w > 0) {
    t.util_tensor /= w;
    t.util_smem /= w;
    t.util_l2 /= w;
    t.util_dram /= w;
    t.util_l2_link /= w;
    t.l2_read_hit_rate /= w;
  }
  t.tflops = t.seconds > 0 ? t.flops / t.seconds / 1e12 : 0;
  t.dram_gbps = t.seconds > 0 ? (t.dram_read_bytes + t.dram_write_bytes) / t.seconds / 1e9 : 0;
  t.limiter = pick_limiter(t);
  return t;
}

RunResult run_simulation(const RunRequest& req) {
  const auto t0 = std::chrono::steady_clock::now();
  Gpu gpu("gpu", req.config.sections);
  for (const auto& op : req.ops) gpu.check_op(op);
  gpu.set_ops(req.ops);
  sc_core::sc_trace_file* tf = nullptr;
  if (!req.vcd_path.empty()) {
    std::string base = req.vcd_path;
    if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_NS);  // one VCD time unit = one core cycle
    gpu.trace(tf, req.vcd_signals.empty() ? std::vector<std::string>{"all"} : req.vcd_signals);
  }
  sc_core::sc_start();
  if (tf) sc_core::sc_close_vcd_trace_file(tf);
  RunResult out;
  out.ops = gpu.results();
  out.total = total_of(out.ops);
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace stcsim
