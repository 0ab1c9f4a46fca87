#include "validation/harness/device_probe.h"

#include <cuda_runtime_api.h>

#include <fstream>
#include <iostream>

#include "validation/harness/cuda_check.h"
#include "validation/harness/isolation.h"
#include "validation/harness/result_writer.h"

namespace stcsim::validation {

int probe_device(const std::string& scratch, double timeout_s, nlohmann::json& device) {
  const std::string dev_file = scratch + "/device.json";
  const auto probe = run_isolated(
      [&] {
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
          std::cout << "skipped: no GPU\n";
          return 77;
        }
        cudaDeviceProp p{};
        CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
        const nlohmann::json d{
            {"name", p.name},
            {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
            {"sm_count", p.multiProcessorCount},
            {"l2_bytes", p.l2CacheSize},
            {"global_mem_bytes", (long long)p.totalGlobalMem},
            {"smem_per_block_optin", (long long)p.sharedMemPerBlockOptin}};
        write_file_atomic(dev_file, d.dump());
        return 0;
      },
      scratch + "/progress", timeout_s);
  if (!probe.exited || probe.status != 0) return probe.exited && probe.status == 77 ? 77 : 1;
  std::ifstream in(dev_file);
  device = nlohmann::json::parse(in);
  return 0;
}

}  // namespace stcsim::validation
