// Implementation "rtl" of kind tensor_core: a sub-core mma pipe made of the Verilated
// RTL dot-product units, rtl/src/sp24_dot.sv for 2:4 mma.sp and dense_dot.sv for dense
// mma, fp16/bf16 with fp32 accumulation and s8 with s32 (docs/rtl.md, "impl: rtl").
//
// Timing is measured, not given. For each supported kind the constructor clocks one
// Verilated unit through the dot products that one unit does for an instruction (its m*n
// dot products spread evenly over `sparse_dot_units` or `dense_dot_units` units that run
// in lockstep), back to back: ii = the cycles the unit's input is busy, latency =
// operand_latency_cycles + the cycles from the first beat to the last result. The RTL has
// no data-dependent timing (it stalls only on output back-pressure, which the pipe never
// applies), so each kind is measured once, here, and every clone of the pipe shares the
// figures. models/tensor_core/dot_unit_timing.h has them in closed form; tests/rtl
// checks the two agree. issue() then reserves a Timeline as mma_pipeline does.
//
// Values: in functional mode dot_unit() hands out a Verilated unit that computes each
// instruction's dot product (rtl_dot_values.cpp). The arithmetic is the RTL's, so
// tensor_core.numerics must name the preset the RTL was generated from (STCSIM_RTL_PRESET).
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "models/common/timeline.h"
#include "models/tensor_core/dot_unit_timing.h"
#include "models/tensor_core/i_tensor_core.h"
#include "sim/core/param.h"

namespace stcsim {

struct RtlTensorCoreSpec {
  int sparse_dot_units = 64;  // sp24_dot units per sub-core pipe
  int dense_dot_units = 32;   // dense_dot units per sub-core pipe
  int operand_latency = 15;   // register-file reads and write-back around the units

  static std::vector<ParamDecl> params();
  // InputError when tensor_core.numerics is not the RTL's preset.
  static RtlTensorCoreSpec from(const ParamSet& p);
};

class RtlTensorCore : public ITensorCore {
 public:
  explicit RtlTensorCore(const RtlTensorCoreSpec& spec);  // measures every supported kind

  bool supports(const MmaKind& k) const override { return unsupported_reason(k).empty(); }
  std::string unsupported_reason(const MmaKind& k) const override;
  double initiation_interval(const MmaKind& k) const override { return timing(k).ii; }
  int latency(const MmaKind& k) const override { return timing(k).latency; }
  Cycle issue(Cycle ready, const MmaKind& k) override { return pipe_.reserve(ready, timing(k).ii); }
  Cycle busy_cycles() const override { return pipe_.busy_cycles(); }
  std::string numerics_preset() const override { return preset(); }
  Cycle free_at() const override { return pipe_.free_at(); }
  std::unique_ptr<ITensorCore> clone_empty() const override;
  functional::DotUnit dot_unit(const MmaKind& k) const override;

  // The measured figures of a supported kind (InputError naming the reason otherwise).
  const DotUnitTiming& timing(const MmaKind& k) const;
  int units(const MmaKind& k) const {
    return k.sparsity.dense() ? spec_.dense_dot_units : spec_.sparse_dot_units;
  }
  const RtlTensorCoreSpec& spec() const { return spec_; }
  static const char* preset();  // the numerics preset the RTL was generated from
  static int block();           // logical K per beat of its units (the preset's block)

 private:
  using Measured = std::array<std::optional<DotUnitTiming>, 2 * kNumDtypes>;  // by slot()
  static int slot(const MmaKind& k) { return int(k.dtype) * 2 + (k.sparsity.dense() ? 0 : 1); }
  RtlTensorCore(const RtlTensorCoreSpec& spec, std::shared_ptr<const Measured> m)
      : spec_(spec), measured_(std::move(m)) {}

  RtlTensorCoreSpec spec_;
  std::shared_ptr<const Measured> measured_;
  Timeline pipe_;
};

// The functional-mode unit of a supported kind (rtl_dot_values.cpp).
functional::DotUnit make_rtl_dot_unit(const MmaKind& k, int block);

}  // namespace stcsim
