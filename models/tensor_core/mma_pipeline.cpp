#include "models/tensor_core/mma_pipeline.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "models/numerics/accumulation_model.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> MmaPipelineSpec::params() {
  const MmaPipelineSpec def;  // defaults: the struct's initialisers (mma_pipeline.h)
  std::vector<ParamDecl> out;
  for (Dtype d : kAllDtypes) {
    const std::string n = to_string(d);
    const auto shape = dense_mma_shape(d);
    const std::string s = "m" + std::to_string(shape.m) + "n" + std::to_string(shape.n) + "k" +
                          std::to_string(shape.k);
    out.push_back(int_param(n + "_ii_cycles", "cycles", def.per_dtype[int(d)].ii, 0, 1024,
                            "initiation interval of one " + n + " mma." + s +
                                " per sub-core pipe (0: dtype not supported)"));
    out.push_back(int_param(n + "_latency_cycles", "cycles", def.per_dtype[int(d)].latency, 0, 4096,
                            "cycles from issue of one " + n + " mma." + s + " to its result"));
  }
  for (Dtype d : kAllDtypes) {
    const std::string n = to_string(d);
    out.push_back(int_param(
        "wgmma_" + n + "_cycles_per_n8", "cycles", def.wgmma_cycles_per_n8[int(d)], 0, 1024,
        "cycles a sub-core's pipe spends on 8 columns of its m16 slice of one " + n +
            " wgmma.mma_async m64nNk" + std::to_string(dense_mma_shape(d).k) + " (0: no " + n +
            " wgmma)"));
  }
  out.push_back(
      int_param("wgmma_drain_cycles", "cycles", def.wgmma_drain_cycles, 0, 4096,
                "cycles from a wgmma slice's last step to its result in the accumulators"));
  // "none" spells the default, an empty sparse_patterns.
  out.push_back(string_param("sparse_patterns", std::string("none"), {},
                             "N:M patterns of A the datapath supports for mma.sp, comma-separated "
                             "(e.g. 2:4 or 2:4,1:4), or none"));
  out.push_back(int_param("sparse_extra_latency_cycles", "cycles", def.sparse_extra_latency, 0,
                          1024, "extra latency of an mma.sp for metadata decode and B selection"));
  out.push_back(float_param("operand_b_bytes_per_cycle", "bytes/cycle", def.b_bytes_per_cycle, 0,
                            1e6,
                            "B operand bytes the pipe can take in per cycle (0: unlimited); a "
                            "sparse instruction needs M/N times the dense B"));
  out.push_back(
      float_param("wgmma_b_bytes_per_cycle", "bytes/cycle", def.wgmma_b_bytes_per_cycle, 0, 1e6,
                  "B operand bytes a wgmma.sp can take in per cycle from shared memory (0: "
                  "operand_b_bytes_per_cycle)"));
  out.push_back(float_param("metadata_bits_per_cycle", "bits/cycle", def.metadata_bits_per_cycle, 0,
                            1e6, "metadata bits the pipe can read per cycle (0: unlimited)"));
  out.push_back(float_param(
      "register_operand_bytes_per_cycle", "bytes/cycle", def.reg_operand_bytes_per_cycle, 0, 1e6,
      "register operand bytes (A with its metadata, B, the 32-bit accumulators) a sub-core's "
      "mma.sync / mma.sp reads per cycle; an A or B fragment in the registers the warp's "
      "previous mma read is reused, not read again (0: unlimited)"));
  out.push_back(int_param(
      "fragment_writes_on_register_path", "0 or 1", def.fragment_writes_on_path ? 1 : 0, 0, 1,
      "1: the fragments a warp's ldmatrix write into its registers take the register operand "
      "path as well, for their bytes, ending as they land (the register file's banks serve the "
      "writes and the operand reads); 0: the path carries only the reads"));
  out.push_back(
      string_param("numerics", def.numerics, numerics::accumulation_preset_names(),
                   "accumulation model of the dot products (models/numerics): block size, "
                   "alignment bits, rounding"));
  return out;
}

MmaPipelineSpec MmaPipelineSpec::from(const ParamSet& p) {
  MmaPipelineSpec s;
  for (Dtype d : kAllDtypes) {
    const std::string n = to_string(d);
    s.per_dtype[int(d)].ii = int(p.get_int(n + "_ii_cycles"));
    s.per_dtype[int(d)].latency = int(p.get_int(n + "_latency_cycles"));
  }
  const std::string& pats = p.get_string("sparse_patterns");
  if (pats != "none") {
    std::stringstream ss(pats);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        s.sparse_patterns.push_back(parse_sparsity(item));
      } catch (const InputError& e) {
        throw InputError(std::string("tensor_core.sparse_patterns: ") + e.what());
      }
    }
  }
  for (Dtype d : kAllDtypes)
    s.wgmma_cycles_per_n8[int(d)] =
        int(p.get_int(std::string("wgmma_") + to_string(d) + "_cycles_per_n8"));
  s.wgmma_drain_cycles = int(p.get_int("wgmma_drain_cycles"));
  s.sparse_extra_latency = int(p.get_int("sparse_extra_latency_cycles"));
  s.b_bytes_per_cycle = p.get_float("operand_b_bytes_per_cycle");
  s.wgmma_b_bytes_per_cycle = p.get_float("wgmma_b_bytes_per_cycle");
  s.metadata_bits_per_cycle = p.get_float("metadata_bits_per_cycle");
  s.reg_operand_bytes_per_cycle = p.get_float("register_operand_bytes_per_cycle");
  s.fragment_writes_on_path = p.get_int("fragment_writes_on_register_path") != 0;
  s.numerics = p.get_string("numerics");
  return s;
}

namespace {

// "fp16, bf16, tf32, int8": the dtypes with a nonzero rate, for the messages below (a user
// who asks for fp8 on an Ampere preset learns what it has instead).
template <class Rate>
std::string dtypes_with(const Rate& rate) {
  std::string s;
  for (Dtype d : kAllDtypes)
    if (rate(d) > 0) s += (s.empty() ? "" : ", ") + std::string(to_string(d));
  return s.empty() ? "none" : s;
}

}  // namespace

std::string MmaPipeline::unsupported_reason(const MmaKind& k) const {
  const std::string d = to_string(k.dtype);
  if (k.warpgroup()) {
    if (spec_.wgmma_cycles_per_n8[int(k.dtype)] <= 0)
      return "no " + d + " wgmma (tensor_core.wgmma_" + d +
             "_cycles_per_n8 is 0; wgmma here takes: " +
             dtypes_with([&](Dtype x) { return spec_.wgmma_cycles_per_n8[int(x)]; }) + ")";
    if (k.wgmma_n % 8 != 0 || k.wgmma_n < 8 || k.wgmma_n > 256)
      return "no wgmma with N = " + std::to_string(k.wgmma_n) +
             " (PTX: a multiple of 8 from 8 to 256)";
  } else if (timing(k.dtype).ii <= 0) {
    return "no " + d + " mma (tensor_core." + d + "_ii_cycles is 0; mma here takes: " +
           dtypes_with([&](Dtype x) { return timing(x).ii; }) + ")";
  }
  if (k.sparsity.dense()) return "";
  for (const auto& s : spec_.sparse_patterns)
    if (s == k.sparsity) return "";
  return "no " + k.sparsity.str() + " mma.sp (tensor_core.sparse_patterns does not list it)";
}

double MmaPipeline::initiation_interval(const MmaKind& k) const {
  // The same real products as the dense instruction; a wgmma slice takes N/8 steps.
  double ii = k.warpgroup() ? double(k.wgmma_n / 8) * spec_.wgmma_cycles_per_n8[int(k.dtype)]
                            : timing(k.dtype).ii;
  if (!k.sparsity.dense()) {
    // Each sub-core receives all of B (a wgmma broadcasts it) and its own rows' metadata.
    const double meta_bits = double(k.metadata_bits()) * k.sub_core_shape().m / k.shape().m;
    // mma.sp takes B from the registers, wgmma.sp from shared memory: two paths.
    const double b_path = k.warpgroup() && spec_.wgmma_b_bytes_per_cycle > 0
                              ? spec_.wgmma_b_bytes_per_cycle
                              : spec_.b_bytes_per_cycle;
    if (b_path > 0) ii = std::max(ii, double(k.b_bytes()) / b_path);
    if (spec_.metadata_bits_per_cycle > 0)
      ii = std::max(ii, meta_bits / spec_.metadata_bits_per_cycle);
  }
  return ii;
}

double MmaPipeline::interval_with_reuse(const MmaKind& k, unsigned reuse) const {
  const double ii = initiation_interval(k);
  if (spec_.reg_operand_bytes_per_cycle <= 0 || k.warpgroup()) return ii;
  // A warp's accumulators are 32-bit (f32, or s32 for integers) in every kind the
  // kernels issue; each instruction reads and writes all of its m x n.
  const auto s = k.shape();
  double bytes = double(s.m) * s.n * 4;
  if (!(reuse & ITensorCore::kReuseA)) bytes += k.a_bytes() + double(k.metadata_bits()) / 8;
  if (!(reuse & ITensorCore::kReuseB)) bytes += double(k.b_bytes());
  return std::max(ii, bytes / spec_.reg_operand_bytes_per_cycle);
}

int MmaPipeline::latency(const MmaKind& k) const {
  const int sparse = k.sparsity.dense() ? 0 : spec_.sparse_extra_latency;
  if (k.warpgroup())
    return int(std::ceil(initiation_interval(k))) + spec_.wgmma_drain_cycles + sparse;
  return timing(k.dtype).latency + sparse;
}

static Registrar<ITensorCore> reg_mma_pipeline{
    ComponentInfo{"tensor_core", "mma_pipeline",
                  "accepts warp-level mma / mma.sp instructions at a per-kind initiation "
                  "interval and returns results after a per-kind latency",
                  "in-order mma.sync / mma.sp pipeline, one per sub-core",
                  MmaPipelineSpec::params(), true},
    [](const ParamSet& p, const BuildContext&) {
      return std::make_unique<MmaPipeline>(MmaPipelineSpec::from(p));
    }};

}  // namespace stcsim
