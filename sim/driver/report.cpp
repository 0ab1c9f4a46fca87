#include "sim/driver/report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "workloads/pruning/prune_model.h"

namespace stcsim {

namespace {
std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.insert(0, w - s.size(), ' ');
  return s;
}
std::string padr(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}
}  // namespace

std::string format_report(const RunRequest& req, const RunResult& res) {
  std::ostringstream os;
  const auto& g = req.config.section("gpu").params;
  os << "stcsim: " << req.config.name << " (" << req.config.description << "), "
     << g.get_int("num_sms") << " SMs at " << g.get_float("clock_mhz") << " MHz\n\n";
  // The name column fits the longest name (variant/op names are never cut), and with
  // several pruning variants each gets its own total row: adding a dense run to its
  // pruned copies would describe no network.
  const bool per_variant = res.variants.size() > 1;
  std::size_t name_width = 22;
  for (const auto& r : res.ops) name_width = std::max(name_width, r.op.name.size() + 2);
  if (per_variant)
    for (const auto& v : res.variants) name_width = std::max(name_width, v.op.name.size() + 8);
  os << padr("gemm", name_width) << padr("MxNxK", 18) << padr("dtype", 6) << pad("cycles", 11)
     << pad("time us", 10) << pad("TFLOP/s", 9) << pad("%peak", 7) << pad("tc", 5) << pad("smem", 5)
     << pad("l2", 5) << pad("dram", 5) << "  " << padr("limiter", 11) << "mapping\n";
  auto row = [&](const OpResult& r, bool details) {
    std::string shape = details ? std::to_string(r.op.m) + "x" + std::to_string(r.op.n) + "x" +
                                      std::to_string(r.op.k)
                                : "";
    os << padr(r.op.name, name_width) << padr(shape, 18)
       << padr(details ? std::string(to_string(r.op.dtype)) +
                             (r.op.sparsity.dense() ? "" : " " + r.op.sparsity.str())
                       : "",
               6)
       << pad(fmt("%.0f", r.cycles), 11) << pad(fmt("%.1f", r.seconds * 1e6), 10)
       << pad(fmt("%.1f", r.tflops), 9)
       << pad(fmt("%.1f", r.peak_tflops > 0 ? 100 * r.tflops / r.peak_tflops : 0), 7)
       << pad(fmt("%.2f", r.util_tensor), 5) << pad(fmt("%.2f", r.util_smem), 5)
       << pad(fmt("%.2f", r.util_l2), 5) << pad(fmt("%.2f", r.util_dram), 5) << "  "
       << padr(r.limiter, 11);
    if (details && !r.op.weight_pattern.empty()) os << "[" << r.op.weight_pattern << "] ";
    if (details && r.op.batch > 1) os << "x" << r.op.batch << " ";
    if (details) {
      const auto& m = r.mapping;
      os << m.cta_m << "x" << m.cta_n << "x" << m.cta_k << "/" << m.warp_m << "x" << m.warp_n
         << " s" << m.stages << (m.split_k > 1 ? " splitK" + std::to_string(m.split_k) : "") << " "
         << r.occupancy.ctas_per_sm << "cta/SM " << fmt("%.2f", r.waves) << " waves";
    }
    os << "\n";
  };
  for (const auto& r : res.ops) row(r, true);
  if (per_variant) {
    for (auto v : res.variants) {
      v.op.name = "total " + v.op.name;
      row(v, false);
    }
  } else {
    row(res.total, false);
  }
  for (const auto& r : res.ops)
    if (r.dense_cycles > 0) {
      const std::string what =
          r.op.block_sparse()
              ? r.op.weight_pattern + (r.op.sparsity.dense() ? "" : "+" + r.op.sparsity.str())
              : r.op.sparsity.str();
      os << "  " << r.op.name << " (" << what << " weights): " << fmt("%.2fx", r.speedup);
      if (r.products > 0)
        os << " over dense = work " << fmt("%.2f", r.work_reduction) << " x efficiency "
           << fmt("%.2f", r.efficiency_ratio) << " x capability "
           << fmt("%.2f", r.capability_ratio);
      else  // a map with no block left (an old trace): no multiply, no ratio to split
        os << " over dense, with no weight left (no multiplies)";
      if (r.op.block_sparse())
        os << "; blocks kept " << fmt("%.3f", r.block_density) << ", imbalance "
           << fmt("%.2f", r.block_imbalance) << ", index wait "
           << fmt("%.1f", 100 * r.index_wait_fraction) << "% of CTA time";
      os << "\n";
    }
  if (res.total.dense_cycles > 0)
    os << "  all sparse GEMMs vs their dense twins: " << fmt("%.2fx", res.total.speedup)
       << " over dense = work " << fmt("%.2f", res.total.work_reduction) << " x efficiency "
       << fmt("%.2f", res.total.efficiency_ratio) << " x capability "
       << fmt("%.2f", res.total.capability_ratio) << "\n";
  os << "\ntc/smem/l2/dram: fraction of cycles each resource was busy. Tensor-pipe stalls "
        "(total): ";
  const double pc = res.total.pipe_cycles;
  if (pc > 0) {
    os << "busy " << fmt("%.1f%%", 100 * res.total.pipe_busy / pc);
    for (int i = 0; i < int(StallCause::kCount); ++i)
      if (res.total.stalls.cycles[i] > 0)
        os << ", " << to_string(StallCause(i)) << " "
           << fmt("%.1f%%", 100 * res.total.stalls.cycles[i] / pc);
    os << ", no_work "
       << fmt("%.1f%%",
              100 * std::max(0.0, pc - res.total.pipe_busy - res.total.stalls.total()) / pc);
  }
  if (res.total.power.clock_mhz > 0) {
    int throttled = 0, over = 0;
    for (const auto& r : res.ops) {
      throttled += r.power.throttled > 0;
      over += r.power.over_limit > 0;
    }
    os << "\nPower: " << fmt("%.4g", res.total.power.joules) << " J, "
       << fmt("%.0f", res.total.seconds > 0 ? res.total.power.joules / res.total.seconds : 0)
       << " W average, SM clock " << fmt("%.0f", res.total.power.clock_mhz)
       << " MHz (cycle-weighted); " << throttled << " of " << res.ops.size()
       << " GEMMs throttled by the power limit";
    if (over) os << ", " << over << " above it even at the lowest clock";
  }
  os << "\nSimulated in " << fmt("%.2f", res.wall_seconds) << " s of wall time.\n";
  return os.str();
}

std::string format_variants(const std::vector<std::string>& variants, const RunResult& res) {
  if (variants.empty()) return "";
  std::ostringstream os;
  os << "\nVariants (whole model):\n";
  double base = 0;
  for (const auto& v : variants) {
    double secs = 0, flops = 0;
    int ops = 0, on_dense_core = 0, sparse = 0, skipping = 0;
    for (const auto& r : res.ops) {
      if (r.op.variant != v) continue;
      secs += r.seconds;
      flops += r.flops;
      ++ops;
      if (!r.op.sparsity.dense()) ++sparse;
      if (r.op.block_sparse())
        ++skipping;
      else if (!r.op.weight_pattern.empty() && r.op.sparsity.dense())
        ++on_dense_core;
    }
    if (base == 0) base = secs;
    os << "  " << padr(v, 22) << pad(fmt("%.1f", secs * 1e6), 10) << " us  "
       << pad(fmt("%.2fx", base / secs), 7) << " vs " << variants.front() << "  (" << ops
       << " GEMMs, " << sparse << " on mma.sp";
    if (skipping) os << ", " << skipping << " on the block-skipping kernel";
    if (on_dense_core)
      os << ", " << on_dense_core
         << " block-pruned run on the dense datapath: no block skipping modelled";
    os << ")\n";
  }
  return os.str();
}

std::string format_pruning_notes(const RunResult& res) {
  std::ostringstream os;
  int synthetic = 0;
  for (const auto& r : res.ops) synthetic += r.op.synthetic_weights;
  if (synthetic)
    os << "\nSynthetic weights: " << synthetic
       << " block-pruned GEMMs of a shapes-only model run on block maps pruned from seeded "
          "Normal(0, 1/K) weights (--block-seed), not trained ones (stats.json: "
          "synthetic_weights)\n";
  bool header = false;
  int no_weight = 0;  // attention GEMMs: one line for all of them
  for (const auto& r : res.ops) no_weight += r.op.pruning_note == workloads::kNoteNoWeight;
  if (no_weight)
    os << "\nPruning: " << no_weight
       << " attention GEMMs stay dense: both operands are activations, nothing to prune\n";
  for (const auto& r : res.ops) {
    if (r.op.pruning_note.empty() || r.op.pruning_note == workloads::kNoteNoWeight) continue;
    if (!header) os << "\nPruning: layers skipped, partly pruned or floored:\n";
    header = true;
    os << "  " << r.op.name << ": " << r.op.pruning_note << "\n";
  }
  return os.str();
}

}  // namespace stcsim
