#include "sim/driver/run_driver.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <systemc>

#include "models/gpu/gpu.h"
#include "sim/core/input_error.h"
#include "sim/driver/functional_run.h"
#include "sim/driver/sanitizer_main_stack.h"

namespace stcsim {

// The comparison with the dense twin (compare_with_dense, and over the run in
// run_simulation), written for sparse ops and totals that include one.
namespace {
constexpr const char* kDriver = "run driver (dense twin)";
bool compared(const OpResult& r) { return r.dense_cycles > 0; }
const OpStat dense_cycles{{"dense_cycles", "cycles",
                           "the same GEMM run dense on the same GPU (sparse runs only); "
                           "the total: over the sparse ops' twins",
                           StatTotal::kSeparate, kDriver},
                          field(&OpResult::dense_cycles),
                          compared};
const OpStat speedup{{"speedup_vs_dense", "ratio",
                      "dense seconds / sparse seconds; the total: over the sparse ops "
                      "and their twins",
                      StatTotal::kSeparate, kDriver},
                     field(&OpResult::speedup),
                     compared};
const OpStat work_reduction{
    {"reduction_factors.work_reduction", "ratio",
     "real multiplies, dense over sparse (the speedup is the product of the three factors)",
     StatTotal::kSeparate, kDriver},
    field(&OpResult::work_reduction),
    compared};
const OpStat efficiency_ratio{{"reduction_factors.efficiency_ratio", "ratio",
                               "achieved over peak rate of real multiplies, sparse over dense",
                               StatTotal::kSeparate, kDriver},
                              field(&OpResult::efficiency_ratio),
                              compared};
const OpStat capability_ratio{
    {"reduction_factors.capability_ratio", "ratio",
     "peak rate of real multiplies, sparse over dense", StatTotal::kSeparate, kDriver},
    field(&OpResult::capability_ratio),
    compared};
}  // namespace

OpResult total_of(const std::vector<OpResult>& ops) {
  OpResult t;
  t.op.name = "total";
  StatRegistry<OpResult>::total(ops, &OpResult::cycles, t);
  // Not a reported stat but what stall_pipe_cycles.no_work is formed from.
  for (const auto& r : ops) t.pipe_cycles += r.pipe_cycles;
  return t;
}

namespace {

// Totals over `ops` (named `name`); where some of them were compared with a dense twin
// (twins[i] >= 0 indexes `all`), the comparison over those ops and their twins only:
// the same definitions on summed work and time, peak rates weighted by time.
OpResult total_with_twins(const std::string& name, const std::vector<OpResult>& ops,
                          const std::vector<int>& twins, const std::vector<OpResult>& all) {
  OpResult t = total_of(ops);
  t.op.name = name;
  std::vector<OpResult> compared, dense;
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (twins[i] >= 0) {
      compared.push_back(ops[i]);
      dense.push_back(all[std::size_t(twins[i])]);
    }
  if (compared.empty()) return t;
  OpResult s = total_of(compared), d = total_of(dense);
  double sp = 0, dp = 0;
  for (const auto& r : compared) sp += r.peak_products_per_second * r.seconds;
  for (const auto& r : dense) dp += r.peak_products_per_second * r.seconds;
  s.peak_products_per_second = sp / s.seconds;
  d.peak_products_per_second = dp / d.seconds;
  compare_with_dense(s, d);
  t.dense_cycles = s.dense_cycles;
  t.speedup = s.speedup;
  t.work_reduction = s.work_reduction;
  t.efficiency_ratio = s.efficiency_ratio;
  t.capability_ratio = s.capability_ratio;
  return t;
}

}  // namespace

void compare_with_dense(OpResult& s, const OpResult& d) {
  s.dense_cycles = d.cycles;
  s.speedup = d.seconds / s.seconds;
  s.work_reduction = d.products / s.products;
  s.capability_ratio = s.peak_products_per_second / d.peak_products_per_second;
  const double e_s = s.products / s.seconds / s.peak_products_per_second;
  const double e_d = d.products / d.seconds / d.peak_products_per_second;
  s.efficiency_ratio = e_s / e_d;
}

RunResult run_simulation(const RunRequest& req) {
  const auto t0 = std::chrono::steady_clock::now();
  if (req.functional) {
    if (req.out_dir.empty())
      throw InputError("--functional writes operands and outputs as .npy: give --out DIR");
    std::error_code ec;  // fail before simulating, not after
    std::filesystem::create_directories(req.out_dir, ec);
    if (ec) throw InputError(req.out_dir + ": cannot create output directory: " + ec.message());
  }
  Gpu gpu("gpu", req.config.sections, req.config.name);
  // A sparse GEMM runs right after its dense twin, each from an empty L2 (under either
  // L2 policy), so that the speedup compares like with like.
  std::vector<GemmOp> ops;
  std::vector<int> user_index, twin_index;  // per user op: its place in `ops`, its twin's (-1)
  bool any_sparse = false;
  for (const auto& op : req.ops) {
    try {
      gpu.check_op(op);
    } catch (const InputError& e) {
      // Name the GPU: "fp8_e4m3 on a100" must say which preset lacks it and what it has.
      throw InputError("arch " + req.config.name + ": " + e.what());
    }
    twin_index.push_back(-1);
    if ((!op.sparsity.dense() || op.block_sparse()) && req.compare_dense) {
      GemmOp twin = op;
      twin.sparsity = {};
      twin.block_map = nullptr;  // the dense GEMM the pruned one stands for
      twin.name += ".dense";
      gpu.check_op(twin);
      twin_index.back() = int(ops.size());
      ops.push_back(twin);
      any_sparse = true;
    }
    user_index.push_back(int(ops.size()));
    ops.push_back(op);
  }
  gpu.set_l2_policy(req.l2);
  gpu.set_cold_l2_per_op(any_sparse);
  gpu.set_memoize(req.memoize);
  gpu.set_analytic(req.analytic);
  gpu.set_steady_state(req.steady_state);
  gpu.set_on_op_done(req.on_op_done);
  gpu.set_ops(ops);
  sc_core::sc_trace_file* tf = nullptr;
  if (!req.vcd_path.empty()) {
    std::string base = vcd_file_name(req.vcd_path);
    base.resize(base.size() - 4);  // SystemC adds the .vcd
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    tf->set_time_unit(1, sc_core::SC_NS);  // one VCD time unit = one core cycle
    gpu.trace(tf, req.vcd_signals.empty() ? std::vector<std::string>{"all"} : req.vcd_signals);
  }
  sc_core::sc_start();
  restore_main_stack_for_sanitizer();
  if (tf) sc_core::sc_close_vcd_trace_file(tf);
  RunResult out;
  const auto& all = gpu.results();
  for (std::size_t i = 0; i < user_index.size(); ++i) {
    OpResult r = all[user_index[i]];
    if (twin_index[i] >= 0) compare_with_dense(r, all[twin_index[i]]);
    out.ops.push_back(r);
  }
  if (req.functional) {
    FunctionalOptions fo{req.out_dir,
                         req.config.section("tensor_core").params.get_string("numerics"), req.seed,
                         req.staged};
    for (std::size_t i = 0; i < out.ops.size(); ++i)
      out.functional.push_back(run_functional(out.ops[i], fo, int(i)));
  }
  out.total = total_with_twins("total", out.ops, twin_index, all);
  std::vector<std::string> variants;  // in the order they first appear
  for (const auto& r : out.ops)
    if (std::find(variants.begin(), variants.end(), r.op.variant) == variants.end())
      variants.push_back(r.op.variant);
  if (variants.size() > 1)
    for (const auto& v : variants) {
      std::vector<OpResult> ops;
      std::vector<int> twins;
      for (std::size_t i = 0; i < out.ops.size(); ++i)
        if (out.ops[i].op.variant == v) {
          ops.push_back(out.ops[i]);
          twins.push_back(twin_index[i]);
        }
      out.variants.push_back(total_with_twins(v, ops, twins, all));
    }
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace stcsim
