// What a kernel sees of a preset (KernelEnv), built from the preset's resolved sections
// as Gpu builds it, with one mapping.policy: for tests of the mapping choosers.
#pragma once
#include <memory>
#include <string>
#include <type_traits>

#include "models/kernels/i_kernel.h"
#include "models/memory/i_dram.h"
#include "models/memory/i_l2_cache.h"
#include "sim/config/config.h"
#include "sim/core/registry.h"

namespace stcsim::test {

struct PresetEnv {
  PresetEnv(const std::string& arch, const std::string& policy) : cfg(load_arch(arch)) {
    apply_override(cfg, "mapping.policy=" + policy);
    gpu = GpuSpec::from(cfg.section("gpu").params);
    sm = SmSpec::from(cfg.section("sm").params);
    req = MappingRequest::from(cfg.section("mapping").params);
    BuildContext ctx{gpu.clock_mhz};
    auto make = [&](auto* tag, const char* kind) {
      using I = std::remove_pointer_t<decltype(tag)>;
      const auto& s = cfg.section(kind);
      return Registry<I>::create(s.impl, s.params, ctx);
    };
    tc = make(static_cast<ITensorCore*>(nullptr), "tensor_core");
    smem = make(static_cast<ISharedMemory*>(nullptr), "smem");
    tma = make(static_cast<ITma*>(nullptr), "tma");
    l2 = make(static_cast<IL2Cache*>(nullptr), "l2");
    dram = make(static_cast<IDram*>(nullptr), "dram");
  }
  KernelEnv env() const {
    return KernelEnv{gpu.num_sms,
                     gpu.clock_mhz,
                     sm,
                     *tc,
                     *smem,
                     *tma,
                     req,
                     l2->bytes_per_cycle(),
                     dram->sustained_bytes_per_cycle(),
                     double(l2->hit_latency()),
                     cfg.name};
  }
  Config cfg;
  GpuSpec gpu;
  SmSpec sm;
  MappingRequest req;
  std::unique_ptr<ITensorCore> tc;
  std::unique_ptr<ISharedMemory> smem;
  std::unique_ptr<ITma> tma;
  std::unique_ptr<IL2Cache> l2;
  std::unique_ptr<IDram> dram;
};

}  // namespace stcsim::test
