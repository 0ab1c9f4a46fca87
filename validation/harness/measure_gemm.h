// One GEMM y[M, N] = x[M, K] W[N, K]^T measured on the GPU: each requested kernel (ours:
// dense, 2:4, BSR; vendor: cuBLAS, cuBLASLt, cuSPARSELt) is checked, then timed, and
// becomes one JSON entry of the measurement file (docs/validation.md lists the fields).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "validation/harness/device_info.h"
#include "validation/harness/timing.h"

namespace stcsim::validation {

struct MeasureSettings {
  std::set<std::string> kernels;  // dense, sp24, bsr, cublas, cublaslt, cusparselt
  std::string tile = "auto";      // or "CMxCNxCK/WMxWN/sS" for our kernels
  int swizzle = 0;                // 0: min(8, N-tiles), as the simulator's chooser
  double bsr_density = 0.5;
  int warmup = 5, runs = 30, samples = 32;
  std::uint64_t seed = 1;
};

struct GemmSpec {
  std::string name;
  int m = 0, n = 0, k = 0;
};

struct MeasureContext {
  const DeviceInfo& device;
  const Nvml& nvml;
  L2Flush& flush;
  cudaStream_t stream;
};

// Appends one entry per kernel to `entries` and one note per skipped kernel to `skipped`.
// Returns false when a kernel produced a wrong result (the entry says which check).
bool measure_gemm(const GemmSpec& g, const MeasureSettings& s, MeasureContext& ctx,
                  nlohmann::json& entries, nlohmann::json& skipped, nlohmann::json& baselines);

}  // namespace stcsim::validation
