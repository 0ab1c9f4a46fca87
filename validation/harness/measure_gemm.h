// One GEMM y[M, N] = x[M, K] W[N, K]^T measured on the GPU by one kernel family (ours:
// dense, 2:4, BSR; vendor: cuBLAS, cuBLASLt, cuSPARSELt): checked, then timed
// (timing.h), giving one entry of the measurement file or one skipped note
// (docs/validation.md lists the fields). Our kernels run problems that are not tile
// multiples padded with zero rows and columns up to the tile ("padding" in the entry).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "validation/harness/device_info.h"
#include "validation/harness/timing.h"

namespace stcsim::validation {

struct MeasureSettings {
  std::set<std::string> kernels;  // dense, sp24, bsr, csr, cublas, cublaslt, cusparselt
  std::string tile = "auto";      // or "CMxCNxCK/WMxWN/sS" for our kernels
  int swizzle = 0;                // 0: min(8, N-tiles), as the simulator's chooser
  TimingSettings timing;
  int samples = 32;
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

struct MeasureResult {
  nlohmann::json entry, skipped;  // one of the two
  std::string baseline;           // vendor libraries: "ok", "absent: ...", "error: ..."
  bool check_failed = false;
  bool cuda_error = false;  // a CUDA call failed: the context may be unusable
};

// The sparse kernels run once per sparsity, each its own family (its own process and
// parts): "bsr75" is the BSR kernel with 75% of the blocks pruned, "csr98" the CSR SpMM
// with 98% of the weights pruned.
std::string sparsity_family(const std::string& base, double sparsity);
double family_sparsity(const std::string& family);  // "csr98" -> 0.98

// `kernel` is one family name (bsr, csr: sparsity_family's); never throws for a CUDA or library
// error (the result says so), only for bugs.
MeasureResult measure_gemm(const GemmSpec& g, const std::string& kernel, const MeasureSettings& s,
                           MeasureContext& ctx);

}  // namespace stcsim::validation
