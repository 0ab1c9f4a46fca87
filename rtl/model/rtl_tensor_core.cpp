#include "rtl/model/rtl_tensor_core.h"

#include <stdexcept>

#include "models/numerics/accumulation_model.h"
#include "rtl/model/verilated_dot_unit.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

#ifndef STCSIM_RTL_PRESET
#error "STCSIM_RTL_PRESET must name the numerics preset rtl/ was generated from"
#endif

namespace stcsim {

namespace {

rtl::DotFormat format_of(Dtype d) {
  return d == Dtype::BF16   ? rtl::DotFormat::BF16
         : d == Dtype::INT8 ? rtl::DotFormat::S8
                            : rtl::DotFormat::FP16;
}

}  // namespace

const char* RtlTensorCore::preset() { return STCSIM_RTL_PRESET; }

int RtlTensorCore::block() {
  static const int b =
      numerics::accumulation_preset(preset(), numerics::FloatFormat::FP16).block_size;
  return b;
}

std::vector<ParamDecl> RtlTensorCoreSpec::params() {
  const RtlTensorCoreSpec d;
  return {
      int_param("sparse_dot_units", "units", d.sparse_dot_units, 1, 4096,
                "sp24_dot units per sub-core pipe, in lockstep; an mma.sp's m*n dot products are "
                "spread evenly over them"),
      int_param("dense_dot_units", "units", d.dense_dot_units, 1, 4096,
                "dense_dot units per sub-core pipe, in lockstep; a dense mma's m*n dot products "
                "are spread evenly over them"),
      int_param("operand_latency_cycles", "cycles", d.operand_latency, 0, 4096,
                "register-file operand reads and result write-back around the units, added to "
                "the latency measured on the RTL"),
      string_param("numerics", std::string(RtlTensorCore::preset()),
                   numerics::accumulation_preset_names(),
                   std::string("accumulation model of the dot products: fixed by the RTL, which is "
                               "generated from the ") +
                       RtlTensorCore::preset() + " preset (cmake -DSTCSIM_RTL_PRESET)"),
  };
}

RtlTensorCoreSpec RtlTensorCoreSpec::from(const ParamSet& p) {
  const std::string& n = p.get_string("numerics");
  if (n != RtlTensorCore::preset())
    throw InputError(
        "tensor_core.numerics: impl rtl computes with the arithmetic of its RTL, generated "
        "from the '" +
        std::string(RtlTensorCore::preset()) + "' preset, not '" + n +
        "' (leave tensor_core.numerics at " + RtlTensorCore::preset() +
        ", or rebuild with cmake -DSTCSIM_RTL_PRESET=" + n + ")");
  RtlTensorCoreSpec s;
  s.sparse_dot_units = int(p.get_int("sparse_dot_units"));
  s.dense_dot_units = int(p.get_int("dense_dot_units"));
  s.operand_latency = int(p.get_int("operand_latency_cycles"));
  return s;
}

RtlTensorCore::RtlTensorCore(const RtlTensorCoreSpec& spec) : spec_(spec) {
  auto m = std::make_shared<Measured>();
  for (Dtype d : kAllDtypes)
    for (NmSparsity sp : {NmSparsity{}, NmSparsity{2, 4}}) {
      const MmaKind k{d, sp};
      if (!unsupported_reason(k).empty()) continue;
      const MmaShape s = k.shape();
      const int dots = s.m * s.n, per_unit = (dots + units(k) - 1) / units(k);
      rtl::VerilatedDotUnit unit(!sp.dense(), block());
      const rtl::UnitCycles u = unit.time_back_to_back(per_unit, s.k / block(), format_of(d));
      if (u.results != per_unit || u.beats_accepted != u.input_busy)
        throw std::logic_error("rtl: " + k.str() + ": the unit stalled its input or lost a result");
      (*m)[slot(k)] = DotUnitTiming{u.input_busy, spec.operand_latency + u.first_to_last_result};
    }
  measured_ = std::move(m);
}

std::string RtlTensorCore::unsupported_reason(const MmaKind& k) const {
  if (k.dtype == Dtype::TF32 || is_fp8(k.dtype))
    return std::string("no ") + to_string(k.dtype) +
           " mma (impl rtl: the RTL dot units take fp16, bf16 and s8)";
  if (!k.sparsity.dense() && !(k.sparsity == NmSparsity{2, 4}))
    return "no " + k.sparsity.str() + " mma.sp (impl rtl: sp24_dot implements 2:4 only)";
  if (k.shape().k % block() != 0)
    return "no " + k.str() + " (impl rtl: its K is not a whole number of the units' " +
           std::to_string(block()) + "-wide beats)";
  return "";
}

const DotUnitTiming& RtlTensorCore::timing(const MmaKind& k) const {
  const auto& t = (*measured_)[slot(k)];
  if (!t) throw InputError("tensor_core: " + unsupported_reason(k));
  return *t;
}

std::unique_ptr<ITensorCore> RtlTensorCore::clone_empty() const {
  return std::unique_ptr<ITensorCore>(new RtlTensorCore(spec_, measured_));
}

functional::DotUnit RtlTensorCore::dot_unit(const MmaKind& k) const {
  if (!supports(k)) return {};
  return make_rtl_dot_unit(k, block());
}

static Registrar<ITensorCore> reg_rtl{
    ComponentInfo{"tensor_core", "rtl",
                  "accepts warp-level mma / mma.sp instructions at a per-kind initiation "
                  "interval and returns results after a per-kind latency",
                  "the Verilated RTL dot-product units (rtl/src: sp24_dot for 2:4 mma.sp, "
                  "dense_dot for dense mma; fp16, bf16, s8): ii and latency measured by clocking "
                  "them, --functional values computed by them",
                  RtlTensorCoreSpec::params(), false},
    [](const ParamSet& p, const BuildContext&) {
      return std::make_unique<RtlTensorCore>(RtlTensorCoreSpec::from(p));
    }};

}  // namespace stcsim
