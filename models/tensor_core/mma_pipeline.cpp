#include "models/tensor_core/mma_pipeline.h"

#include "sim/core/registry.h"

namespace stcsim {

std::vector<ParamDecl> MmaPipelineSpec::params() {
  std::vector<ParamDecl> out;
  for (Dtype d : kAllDtypes) {
    const std::string n = to_string(d);
    const auto shape = dense_mma_shape(d);
    const std::string s =
        "m" + std::to_string(shape.m) + "n" + std::to_string(shape.n) + "k" + std::to_string(shape.k);
    out.push_back(int_param(n + "_ii_cycles", "cycles", 0, 0, 1024,
                            "initiation interval of one " + n + " mma." + s +
                                " per sub-core pipe (0: dtype not supported)"));
    out.push_back(int_param(n + "_latency_cycles", "cycles", 0, 0, 4096,
                            "cycles from issue of one " + n + " mma." + s + " to its result"));
  }
  return out;
}

MmaPipelineSpec MmaPipelineSpec::from(const ParamSet& p) {
  MmaPipelineSpec s;
  for (Dtype d : kAllDtypes) {
    const std::string n = to_string(d);
    s.per_dtype[int(d)].ii = int(p.get_int(n + "_ii_cycles"));
    s.per_dtype[int(d)].latency = int(p.get_int(n + "_latency_cycles"));
  }
  return s;
}

static Registrar<ITensorCore> reg_mma_pipeline{
    ComponentInfo{"tensor_core", "mma_pipeline",
                  "accepts warp-level mma instructions at a per-dtype initiation interval and "
                  "returns results after a per-dtype latency",
                  "in-order dense mma.sync pipeline, one per sub-core", MmaPipelineSpec::params(),
                  true},
    [](const ParamSet& p, const BuildContext&) { return std::make_unique<MmaPipeline>(MmaPipelineSpec::from(p)); }};

}  // namespace stcsim
