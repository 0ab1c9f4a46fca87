// Device buffers and event timing shared by the microbenchmark groups (host code; every
// call checked with CUDA_CHECK, which throws).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#include "validation/harness/cuda_check.h"

namespace stcsim::ubench {

// cudaMalloc'd bytes, set to 0x3C in every byte (f16 1.0586: not zero, not a NaN).
struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(std::size_t bytes) {
    CUDA_CHECK(cudaMalloc(&p, bytes));
    CUDA_CHECK(cudaMemset(p, 0x3C, bytes));
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Microseconds between CUDA events recorded before and after f() on the default stream.
inline double event_us(const std::function<void()>& f) {
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  CUDA_CHECK(cudaEventRecord(a));
  f();
  CUDA_CHECK(cudaEventRecord(b));
  CUDA_CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms * 1000.0;
}

}  // namespace stcsim::ubench
