// What every measured kernel family shares (measure_gemm.cpp, measure_csr.cpp): device
// buffers freed with their owner, downloads, the timed part of an entry and its head.
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/harness/cuda_check.h"
#include "validation/harness/measure_gemm.h"

namespace stcsim::validation {

// A device allocation, freed with its owner.
struct DeviceBuffer {
  void* p = nullptr;
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 16)); }
  template <typename T>
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size() * sizeof(T)) {
    CUDA_CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

template <typename T>
std::vector<T> download(const void* p, std::size_t count) {
  std::vector<T> h(count);
  CUDA_CHECK(cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// time_us, timing, sm_clock_mhz (and its median) of `launch` (timing.h).
nlohmann::json timed(const std::function<void(cudaStream_t)>& launch, const MeasureSettings& s,
                     MeasureContext& ctx);

// name, m, n, k, dtype fp16, sparsity, kernel.
nlohmann::json entry_head(const GemmSpec& g, const char* sparsity, const std::string& kernel);

// One kernel family's results for one GEMM, never throwing for CUDA errors (measure_gemm
// catches them): the CSR SpMM at `sparsity` (measure_csr.cpp).
MeasureResult measure_csr(const GemmSpec& g, double sparsity, const MeasureSettings& s,
                          MeasureContext& ctx);

}  // namespace stcsim::validation
