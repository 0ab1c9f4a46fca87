// Implementation "mma_pipeline" of kind tensor_core: an in-order pipeline that starts
// a new mma every `ii` cycles and delivers its result `latency` cycles after issue,
// with (ii, latency) given per dtype by the preset.
#pragma once
#include <array>

#include "models/common/timeline.h"
#include "models/tensor_core/i_tensor_core.h"
#include "sim/core/param.h"

namespace stcsim {

struct MmaPipelineSpec {
  struct Timing {
    int ii = 0;       // cycles between issues; 0 = dtype not supported
    int latency = 0;  // cycles from issue to result
  };
  std::array<Timing, 4> per_dtype{};  // indexed by Dtype

  static std::vector<ParamDecl> params();
  static MmaPipelineSpec from(const ParamSet& p);
};

class MmaPipeline : public ITensorCore {
 public:
  explicit MmaPipeline(const MmaPipelineSpec& spec) : spec_(spec) {}
  bool supports(Dtype d) const override { return timing(d).ii > 0; }
  int initiation_interval(Dtype d) const override { return timing(d).ii; }
  int latency(Dtype d) const override { return timing(d).latency; }
  Cycle issue(Cycle ready, Dtype d) override { return pipe_.reserve(ready, timing(d).ii); }
  Cycle busy_cycles() const override { return pipe_.busy_cycles(); }
  Cycle free_at() const override { return pipe_.free_at(); }
  std::unique_ptr<ITensorCore> clone_empty() const override {
    return std::make_unique<MmaPipeline>(spec_);
  }

 private:
  const MmaPipelineSpec::Timing& timing(Dtype d) const { return spec_.per_dtype[int(d)]; }
  MmaPipelineSpec spec_;
  Timeline pipe_;
};

}  // namespace stcsim
