#include <algorithm>
#include <map>

#include "models/kernels/i_kernel.h"
#include "sim/core/input_error.h"
#include "sim/core/nearest.h"

namespace stcsim {

namespace {
std::map<std::string, std::unique_ptr<IKernel>>& kernels() {
  static std::map<std::string, std::unique_ptr<IKernel>> m;
  return m;
}
std::string names() {
  std::string s;
  for (const auto& [n, _] : kernels()) s += (s.empty() ? "" : ", ") + n;
  return s;
}
}  // namespace

ChooserHardware KernelEnv::chooser(const MmaKind& kind) const {
  ChooserHardware hw;
  hw.num_sms = num_sms;
  hw.sm = sm;
  hw.mma_fma_per_cycle_per_sm = fma_per_cycle_per_sm(kind);
  hw.l2_bytes_per_cycle = l2_bytes_per_cycle;
  hw.smem_bytes_per_cycle = smem.bytes_per_cycle();
  hw.dram_bytes_per_cycle = dram_bytes_per_cycle;
  hw.dram_latency_cycles = l2_hit_latency * 2.0;
  return hw;
}

double KernelEnv::fma_per_cycle_per_sm(const MmaKind& kind) const {
  return double(kind.sub_core_shape().fma()) / tc.initiation_interval(kind) * sm.sub_cores;
}

double KernelEnv::peak_tflops(const MmaKind& kind) const {
  if (!tc.supports(kind)) return 0;
  return 2.0 * fma_per_cycle_per_sm(kind) * num_sms * clock_mhz * 1e6 / 1e12;
}

double KernelEnv::peak_products_per_second(const MmaKind& kind) const {
  if (!tc.supports(kind)) return 0;
  const double per_pipe = double(kind.products()) * kind.sub_core_shape().m / kind.shape().m;
  return per_pipe / tc.initiation_interval(kind) * sm.sub_cores * num_sms * clock_mhz * 1e6;
}

double roofline_cycles(const GemmOp& op, const KernelEnv& env, double fma_per_cycle) {
  const double memory = op.min_bytes() / std::max(1e-9, env.dram_bytes_per_cycle);
  const double compute = fma_per_cycle > 0 ? op.products() / fma_per_cycle : 0.0;
  return std::max(memory, compute) + 2.0 * env.l2_hit_latency;
}

double IKernel::estimate_cycles(const GemmOp& op, const KernelMapping&,
                                const KernelEnv& env) const {
  return roofline_cycles(op, env, env.fma_per_cycle_per_sm(op.kind()) * env.num_sms);
}

void KernelRegistry::add(std::unique_ptr<IKernel> k) {
  const std::string n = k->name();
  kernels()[n] = std::move(k);
}

const IKernel& KernelRegistry::get(const std::string& name) {
  const auto it = kernels().find(name);
  if (it != kernels().end()) return *it->second;
  std::vector<std::string> all;
  for (const auto& [n, _] : kernels()) all.push_back(n);
  throw InputError("mapping.kernel: unknown kernel '" + name + "' (auto, or one of: " + names() +
                   "; nearest: " + nearest_name(name, all) + ")");
}

std::vector<const IKernel*> KernelRegistry::all() {
  std::vector<const IKernel*> out;
  for (const auto& [_, k] : kernels()) out.push_back(k.get());
  return out;
}

const IKernel& KernelRegistry::choose(const GemmOp& op, const MappingRequest& req,
                                      const KernelEnv& env) {
  const IKernel* named = req.kernel != "auto" ? &get(req.kernel) : nullptr;
  if (named && named->runs_row_ops() && !op.is_row_op())
    throw InputError(op.name + ": mapping.kernel " + req.kernel +
                     " runs a network's row ops (softmax, norms, ...), not GEMMs");
  const IKernel* k = nullptr;
  if (named && named->runs_row_ops() == op.is_row_op()) {
    k = named;
  } else {
    // `auto`, or a row op under a mapping that names a GEMM kernel: the row-op kernel.
    auto by_priority = all();
    std::stable_sort(
        by_priority.begin(), by_priority.end(),
        [](const IKernel* a, const IKernel* b) { return a->auto_priority() > b->auto_priority(); });
    // The first that takes the op and can run it on this GPU (a Hopper kernel is asked
    // first and declines on an SM without wgmma or TMA); if none can, the last that
    // takes it (the most general, e.g. multistage_gemm) says why.
    const IKernel* last = nullptr;
    for (const IKernel* c : by_priority)
      if (c->auto_priority() > 0 && c->runs_row_ops() == op.is_row_op() && c->auto_pick(op, req)) {
        last = c;
        if (c->cannot_run(op, env).empty()) {
          k = c;
          break;
        }
      }
    if (!last)
      throw InputError(op.name + ": no registered kernel takes this GEMM (" + names() + ")");
    if (!k) k = last;
  }
  const std::string why = k->cannot_run(op, env);
  if (!why.empty()) throw InputError(op.name + ": " + why);
  return *k;
}

}  // namespace stcsim
