// wgmma.mma_async m64nNk16 and wgmma.mma_async.sp m64nNk32 (f16 in, f32 accumulators, A in
// registers, B from shared memory), N in {64, 128, 256}: throughput (dense-equivalent
// flop per clock per SM; every SM runs 1 or 2 warpgroups issuing back to back into their
// accumulators, one wait at the end) and latency (one warpgroup, wait after each).
// sm_90a only: built for other targets the kernels are empty and never launched.
#include <algorithm>

#include "validation/harness/cuda_check.h"
#include "validation/ubench/ubench.h"
#include "validation/ubench/wgmma_ops.cuh"

namespace stcsim::ubench {
namespace {

constexpr int kSmemBytes = 32 * 1024;  // B: up to 32 x 256 halves

__device__ __forceinline__ void wg_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wg_commit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wg_wait0() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
}

// Shared-memory matrix descriptor, no swizzle: start address, leading and stride byte
// offsets (all >> 4).
__device__ std::uint64_t descriptor(const void* smem) {
  const std::uint64_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return ((addr & 0x3FFFF) >> 4) | (std::uint64_t(128 >> 4) << 16) |
         (std::uint64_t(256 >> 4) << 32);
}

template <int N, bool Sparse>
__global__ void wgmma_loop(int iters, bool wait_each, long long* cta_clocks, float* sink) {
  extern __shared__ __align__(128) std::uint16_t b_smem[];
  __shared__ long long t0, t1;
  for (int i = threadIdx.x; i < kSmemBytes / 2; i += blockDim.x)
    b_smem[i] = std::uint16_t(0x3C00 ^ (i & 0x3FF));  // fp16 near 1, never zero
  if (threadIdx.x == 0) t0 = 0x7FFFFFFFFFFFFFFF, t1 = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
  __syncthreads();
  std::uint32_t a[4];
  for (int i = 0; i < 4; ++i) a[i] = 0x3C003C00u ^ ((threadIdx.x * 5 + i) & 0x3FFu);
  const std::uint64_t b = descriptor(b_smem);
  float d[N / 2] = {};
  const long long start = clock64();
  wg_fence();
  for (int it = 0; it < iters; ++it) {
    if constexpr (Sparse) {
      if constexpr (N == 64) wgmma_sp_m64n64k32(d, a, b, 0x44444444u);
      if constexpr (N == 128) wgmma_sp_m64n128k32(d, a, b, 0x44444444u);
      if constexpr (N == 256) wgmma_sp_m64n256k32(d, a, b, 0x44444444u);
    } else {
      if constexpr (N == 64) wgmma_m64n64k16(d, a, b);
      if constexpr (N == 128) wgmma_m64n128k16(d, a, b);
      if constexpr (N == 256) wgmma_m64n256k16(d, a, b);
    }
    wg_commit();
    if (wait_each) wg_wait0();
  }
  wg_wait0();
  const long long end = clock64();
  atomicMin(reinterpret_cast<unsigned long long*>(&t0), static_cast<unsigned long long>(start));
  atomicMax(reinterpret_cast<unsigned long long*>(&t1), static_cast<unsigned long long>(end));
  float s = 0;
  for (int i = 0; i < N / 2; ++i) s += d[i];
  if (s == 12345.678f) *sink = s;
  __syncthreads();
  if (threadIdx.x == 0) cta_clocks[blockIdx.x] = t1 - t0;
}

template <int N, bool Sparse>
std::vector<Result> run_wgmma(const Device& dev) {
  const std::string name = std::string(Sparse ? "wgmma_sp_m64n" : "wgmma_m64n") +
                           std::to_string(N) + (Sparse ? "k32" : "k16") + "_f16_f32";
  const double flops = 2.0 * 64 * N * (Sparse ? 32 : 16);  // dense-equivalent
  auto kernel = wgmma_loop<N, Sparse>;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  long long* clocks;
  float* sink;
  CUDA_CHECK(cudaMalloc(&clocks, sizeof(long long) * dev.sm_count));
  CUDA_CHECK(cudaMalloc(&sink, 4));
  std::vector<Result> out;
  const int iters = 2048;
  for (int wgs : {1, 2}) {
    Result r{name, "throughput", "flop/clk/SM",
             "every SM, 1 CTA of `warpgroups` warpgroups issuing back to back, clock64 per CTA"};
    r.params = {{"n", N}, {"warpgroups_per_sm", wgs}, {"iterations", iters}};
    for (int rep = 0; rep < 5; ++rep) {
      kernel<<<dev.sm_count, 128 * wgs, kSmemBytes>>>(iters, false, clocks, sink);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<long long> c(dev.sm_count);
      CUDA_CHECK(
          cudaMemcpy(c.data(), clocks, sizeof(long long) * c.size(), cudaMemcpyDeviceToHost));
      for (long long cl : c) r.samples.push_back(flops * wgs * double(iters) / double(cl));
    }
    out.push_back(r);
  }
  Result lat{name, "latency", "clk",
             "one warpgroup, wait_group 0 after each: clocks per instruction"};
  lat.params = {{"n", N}, {"iterations", 256}};
  for (int rep = 0; rep < 5; ++rep) {
    kernel<<<1, 128, kSmemBytes>>>(256, true, clocks, sink);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    long long c = 0;
    CUDA_CHECK(cudaMemcpy(&c, clocks, sizeof c, cudaMemcpyDeviceToHost));
    lat.samples.push_back(double(c) / 256);
  }
  out.push_back(lat);
  cudaFree(clocks);
  cudaFree(sink);
  return out;
}

}  // namespace

std::vector<Bench> wgmma_benches() {
  return {
      {"wgmma_m64n64k16", true, run_wgmma<64, false>},
      {"wgmma_m64n128k16", true, run_wgmma<128, false>},
      {"wgmma_m64n256k16", true, run_wgmma<256, false>},
      {"wgmma_sp_m64n64k32", true, run_wgmma<64, true>},
      {"wgmma_sp_m64n128k32", true, run_wgmma<128, true>},
      {"wgmma_sp_m64n256k32", true, run_wgmma<256, true>},
  };
}

}  // namespace stcsim::ubench
