// mma.sync m16n8k16 and mma.sp m16n8k32 (ordered and plain metadata), f16 in, f32 out:
// throughput (dense-equivalent flop per clock per SM, every SM busy with `warps` warps
// each running 4 independent accumulator chains) and latency (one warp, one dependent
// chain: clocks per instruction). The warp-tile variants run the mma pattern of a GEMM
// warp tile instead: MI x NI accumulators fed by MI distinct A and NI distinct B fragments
// in the mainloop's order (for i, for j), so only the A operand repeats between neighbouring
// instructions, as in validation/cuda/dense_mainloop.cuh. The chain variant repeats every
// operand; the difference between the two is what register operand delivery costs.
#include <algorithm>

#include "validation/harness/cuda_check.h"
#include "validation/ubench/ubench.h"

namespace stcsim::ubench {
namespace {

constexpr int kChains = 4;

enum class Op { Dense, SpOrdered, SpPlain };

template <Op op>
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4],
                                    const std::uint32_t (&b)[4], std::uint32_t e) {
  if constexpr (op == Op::Dense) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else if constexpr (op == Op::SpOrdered) {
    asm volatile(
        "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "r"(e));
  } else {
    asm volatile(
        "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "r"(e));
  }
}

// Per CTA: clocks from the first warp's start to the last warp's end.
template <Op op, int chains>
__global__ void mma_loop(int iters, long long* cta_clocks, float* sink) {
  __shared__ long long t0, t1;
  if (threadIdx.x == 0) t0 = 0x7FFFFFFFFFFFFFFF, t1 = 0;
  __syncthreads();
  const std::uint32_t lane = threadIdx.x;
  // Operands: fp16 values near 1 that differ per lane (never zero); metadata nibble 0100
  // (kept elements 0 and 1 of each group: valid for ordered and plain metadata).
  std::uint32_t a[4], b[4];
  for (int i = 0; i < 4; ++i)
    a[i] = 0x3C003C00u ^ ((lane * 7 + i) & 0x3FFu), b[i] = 0x3C013C01u ^ ((lane * 3 + i) & 0x1FFu);
  const std::uint32_t e = 0x44444444u;
  float d[chains][4] = {};
  const long long start = clock64();
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int c = 0; c < chains; ++c) mma<op>(d[c], a, b, e);
  const long long end = clock64();
  atomicMin(reinterpret_cast<unsigned long long*>(&t0), static_cast<unsigned long long>(start));
  atomicMax(reinterpret_cast<unsigned long long*>(&t1), static_cast<unsigned long long>(end));
  float s = 0;
  for (int c = 0; c < chains; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (s == 12345.678f) *sink = s;  // keeps the chain
  __syncthreads();
  if (threadIdx.x == 0) cta_clocks[blockIdx.x] = t1 - t0;
}

// A warp tile's mma pattern (see the top): per CTA, clocks from the first warp's start to
// the last warp's end.
template <Op op, int MI, int NI>
__global__ void mma_tile_loop(int iters, long long* cta_clocks, float* sink) {
  __shared__ long long t0, t1;
  if (threadIdx.x == 0) t0 = 0x7FFFFFFFFFFFFFFF, t1 = 0;
  __syncthreads();
  const std::uint32_t lane = threadIdx.x % 32;
  std::uint32_t a[MI][4], b[NI][4];
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int r = 0; r < 4; ++r) a[i][r] = 0x3C003C00u ^ ((lane * 7 + i * 5 + r) & 0x3FFu);
#pragma unroll
  for (int j = 0; j < NI; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r) b[j][r] = 0x3C013C01u ^ ((lane * 3 + j * 11 + r) & 0x1FFu);
  const std::uint32_t e = 0x44444444u;
  float d[MI][NI][4] = {};
  const long long start = clock64();
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
      for (int j = 0; j < NI; ++j) mma<op>(d[i][j], a[i], b[j], e);
  const long long end = clock64();
  atomicMin(reinterpret_cast<unsigned long long*>(&t0), static_cast<unsigned long long>(start));
  atomicMax(reinterpret_cast<unsigned long long*>(&t1), static_cast<unsigned long long>(end));
  float s = 0;
#pragma unroll
  for (int i = 0; i < MI; ++i)
#pragma unroll
    for (int j = 0; j < NI; ++j) s += d[i][j][0] + d[i][j][1] + d[i][j][2] + d[i][j][3];
  if (s == 12345.678f) *sink = s;  // keeps every accumulator
  __syncthreads();
  if (threadIdx.x == 0) cta_clocks[blockIdx.x] = t1 - t0;
}

// The warp-tile pattern at the tile shapes the harness's kernels use (64x64 warp tiles:
// 4 x 8; 64x32: 4 x 4; 32x32: 2 x 4), 4 and 8 warps on every SM.
template <Op op, int MI, int NI>
Result run_mma_tile(const Device& dev, const std::string& name, double flops_per_mma, int warps) {
  long long* clocks;
  float* sink;
  const int ctas = dev.sm_count, iters = 512;
  CUDA_CHECK(cudaMalloc(&clocks, sizeof(long long) * ctas));
  CUDA_CHECK(cudaMalloc(&sink, 4));
  Result r{name + "_warp_tile_" + std::to_string(MI) + "x" + std::to_string(NI), "throughput",
           "flop/clk/SM",
           "every SM, 1 CTA of `warps` warps, each a warp tile of MI x NI accumulators with "
           "distinct A and B fragments in the mainloop's order, clock64 per CTA"};
  r.params = {{"warps_per_sm", warps}, {"mi", MI}, {"ni", NI}, {"iterations", iters}};
  for (int rep = 0; rep < 5; ++rep) {
    mma_tile_loop<op, MI, NI><<<ctas, warps * 32>>>(iters, clocks, sink);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<long long> c(ctas);
    CUDA_CHECK(cudaMemcpy(c.data(), clocks, sizeof(long long) * ctas, cudaMemcpyDeviceToHost));
    for (long long cl : c)
      r.samples.push_back(flops_per_mma * warps * MI * NI * double(iters) / double(cl));
  }
  cudaFree(clocks);
  cudaFree(sink);
  return r;
}

template <Op op>
std::vector<Result> run_mma_tiles(const Device& dev, const char* name, double flops_per_mma) {
  std::vector<Result> out;
  for (int warps : {4, 8}) {
    out.push_back(run_mma_tile<op, 4, 8>(dev, name, flops_per_mma, warps));
    out.push_back(run_mma_tile<op, 4, 4>(dev, name, flops_per_mma, warps));
    out.push_back(run_mma_tile<op, 2, 4>(dev, name, flops_per_mma, warps));
  }
  return out;
}

template <Op op>
std::vector<Result> run_mma(const Device& dev, const char* name, double flops_per_mma) {
  long long* clocks;
  float* sink;
  const int ctas = dev.sm_count;
  CUDA_CHECK(cudaMalloc(&clocks, sizeof(long long) * ctas));
  CUDA_CHECK(cudaMalloc(&sink, 4));
  std::vector<Result> out;
  const int iters = 4096;
  for (int warps : {4, 8, 16}) {
    Result r{std::string(name), "throughput", "flop/clk/SM",
             "every SM, 1 CTA of `warps` warps, 4 independent chains per warp, clock64 per CTA"};
    r.params = {{"warps_per_sm", warps}, {"chains_per_warp", kChains}, {"iterations", iters}};
    for (int rep = 0; rep < 5; ++rep) {
      mma_loop<op, kChains><<<ctas, warps * 32>>>(iters, clocks, sink);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<long long> c(ctas);
      CUDA_CHECK(cudaMemcpy(c.data(), clocks, sizeof(long long) * ctas, cudaMemcpyDeviceToHost));
      for (long long cl : c)
        r.samples.push_back(flops_per_mma * warps * kChains * double(iters) / double(cl));
    }
    out.push_back(r);
  }
  Result lat{std::string(name), "latency", "clk",
             "one warp, one dependent chain: clocks per instruction"};
  lat.params = {{"iterations", iters}};
  for (int rep = 0; rep < 5; ++rep) {
    mma_loop<op, 1><<<1, 32>>>(iters, clocks, sink);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    long long c = 0;
    CUDA_CHECK(cudaMemcpy(&c, clocks, sizeof c, cudaMemcpyDeviceToHost));
    lat.samples.push_back(double(c) / iters);
  }
  out.push_back(lat);
  cudaFree(clocks);
  cudaFree(sink);
  return out;
}

}  // namespace

std::vector<Bench> mma_benches() {
  constexpr double k16 = 2.0 * 16 * 8 * 16, k32 = 2.0 * 16 * 8 * 32;  // dense-equivalent
  return {
      {"mma_sync_m16n8k16", false,
       [=](const Device& d) { return run_mma<Op::Dense>(d, "mma_sync_m16n8k16_f16_f32", k16); }},
      {"mma_sp_m16n8k32_ordered", false,
       [=](const Device& d) {
         return run_mma<Op::SpOrdered>(d, "mma_sp_ordered_m16n8k32_f16_f32", k32);
       }},
      {"mma_sp_m16n8k32_plain", false,
       [=](const Device& d) {
         return run_mma<Op::SpPlain>(d, "mma_sp_plain_m16n8k32_f16_f32", k32);
       }},
      {"mma_sync_m16n8k16_warp_tile", false,
       [=](const Device& d) {
         return run_mma_tiles<Op::Dense>(d, "mma_sync_m16n8k16_f16_f32", k16);
       }},
      {"mma_sp_m16n8k32_warp_tile", false,
       [=](const Device& d) {
         return run_mma_tiles<Op::SpOrdered>(d, "mma_sp_ordered_m16n8k32_f16_f32", k32);
       }},
  };
}

}  // namespace stcsim::ubench
