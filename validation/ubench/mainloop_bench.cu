// Mainloop anatomy (issues 13, 14): the validation harness's dense kernel
// (validation/cuda/dense_kernel.cuh: cp.async stages, one barrier per k-tile, ldmatrix.x4
// fragments, mma.sync m16n8k16) timed whole and with parts of its mainloop left out, at
// every compiled tile, on 4096^3, warm (back-to-back launches, no L2 flush). On the H200 the kernel
// reaches 40-56% of the mma.sync rate whatever the tile (1,090-1,530 flop/clk/SM), where the
// simulator predicts 30-83% depending on it; the differences between variants say which part holds
// it back: the global copies (full against no_copy), the barriers (no_copy against
// no_copy_no_barrier), the fragment loads (against mma_only), or mma.sync issue itself
// (mma_only against the mma_sync ubench's 2,726). no_mma times the memory side alone.
// Operands are random f16 in [-1, 1]; every variant's figure counts the whole GEMM's
// flops, so they compare as times. The model runs the same variants of its multistage
// kernel (models/ubench/mainloop_anatomy.cpp), so `stcsim validate` compares them part by part.
// The harness's 2:4 kernel (validation/cuda/sp24_kernel.cuh: mma.sp m16n8k32, a column of
// mma.sp per B fragment, its k-subs rolled) runs the same variants (mainloop_sp24_*), its
// compressed A random and its metadata one valid pattern (kept elements 0 and 1 of every 4).
#include <cuda_fp16.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "validation/cuda/dense_kernel.cuh"
#include "validation/cuda/sp24_kernel.cuh"
#include "validation/ubench/device_util.h"
#include "validation/ubench/ubench.h"

namespace stcsim::ubench {
namespace {

using validation::GemmBuffers;
using validation::GemmKernel;
using validation::GemmLaunch;
using validation::KernelTile;

__global__ void fill_random_f16(__half* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint32_t h = std::uint32_t(i) * 0x9E3779B1u ^ seed;  // a hash, not a generator
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    p[i] = __float2half(float(h >> 8) * (2.0f / 16777216.0f) - 1.0f);
  }
}

struct Variant {
  const char* name;
  unsigned parts;
  const char* what;
};
constexpr Variant kVariants[] = {
    {"full", validation::kAllParts,
     "the whole kernel (warm back-to-back launches: the harness's cold, L2-flushed "
     "launches of 256x128 took 1.4% longer)"},
    {"no_copy", validation::kBarrier | validation::kFragments | validation::kMma,
     "no global->shared copies after the prologue's stages"},
    {"no_copy_no_barrier", validation::kFragments | validation::kMma,
     "no copies, no wait or barrier per k-tile"},
    {"mma_only", validation::kMma, "the mma alone on one k-sub's fragments"},
    {"no_mma", validation::kCopy | validation::kBarrier | validation::kFragments,
     "copies, barriers and fragment loads, no mma"},
};

// The kernel of `kind` with parts P.
template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S, unsigned P>
struct AnatomyKernel {
  using Instance = validation::KernelInstance<validation::dense_gemm<CM, CN, CK, WM, WN, S, P>,
                                              GemmKernel::Dense, CM, CN, CK, WM, WN, S>;
};
template <int CM, int CN, int CK, int WM, int WN, int S, unsigned P>
struct AnatomyKernel<GemmKernel::Sparse24, CM, CN, CK, WM, WN, S, P> {
  using Instance = validation::KernelInstance<validation::sp24_gemm<CM, CN, CK, WM, WN, S, P>,
                                              GemmKernel::Sparse24, CM, CN, CK, WM, WN, S>;
};

// Per-launch time of one variant, microseconds: one launch to warm up, then 5 back to back.
template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S, unsigned P>
double launch_us(const GemmLaunch& g, const GemmBuffers& b) {
  using Instance = typename AnatomyKernel<K, CM, CN, CK, WM, WN, S, P>::Instance;
  CUDA_CHECK(Instance::launch(g, b, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  constexpr int kLaunches = 5;
  return event_us([&] {
           for (int i = 0; i < kLaunches; ++i) CUDA_CHECK(Instance::launch(g, b, nullptr));
         }) /
         kLaunches;
}

template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S>
double variant_us(int v, const GemmLaunch& g, const GemmBuffers& b) {
  switch (kVariants[v].parts) {
    case validation::kAllParts:
      return launch_us<K, CM, CN, CK, WM, WN, S, validation::kAllParts>(g, b);
    case validation::kBarrier | validation::kFragments | validation::kMma:
      return launch_us<K, CM, CN, CK, WM, WN, S,
                       validation::kBarrier | validation::kFragments | validation::kMma>(g, b);
    case validation::kFragments | validation::kMma:
      return launch_us<K, CM, CN, CK, WM, WN, S, validation::kFragments | validation::kMma>(g, b);
    case validation::kMma:
      return launch_us<K, CM, CN, CK, WM, WN, S, validation::kMma>(g, b);
    default:
      return launch_us<K, CM, CN, CK, WM, WN, S,
                       validation::kCopy | validation::kBarrier | validation::kFragments>(g, b);
  }
}

constexpr int kSize = 4096;  // M = N = K

// The five variants of one kernel at one tile, 5 samples each.
template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S>
void time_tile(const GemmBuffers& buf, std::vector<Result>& out) {
  const std::string tile = std::to_string(CM) + "x" + std::to_string(CN) + "x" +
                           std::to_string(CK) + "_" + std::to_string(WM) + "x" +
                           std::to_string(WN) + "_s" + std::to_string(S);
  GemmLaunch g;
  g.kind = K;
  const bool sparse = K == GemmKernel::Sparse24;
  const std::string kernel = sparse ? "sp24" : "dense";
  g.tile = KernelTile{CM, CN, CK, WM, WN, S};
  g.m = g.n = g.k = kSize;
  g.swizzle = 8;
  const double flops = 2.0 * kSize * double(kSize) * kSize;
  for (int v = 0; v < int(std::size(kVariants)); ++v) {
    // A 2:4 GEMM's figure counts the dense GEMM's flops, as the suite's effective rates do.
    Result r{"mainloop_" + kernel + "_" + tile + "_" + kVariants[v].name, "throughput", "TFLOP/s",
             "4096^3 " + kernel + " kernel, " + kVariants[v].what +
                 " (the whole GEMM's flops over the time; CUDA events, 5 launches a sample)"};
    r.params = {{"tile", tile},
                {"variant", kVariants[v].name},
                {"parts", kVariants[v].parts},
                {"m", kSize},
                {"n", kSize},
                {"k", kSize},
                {"swizzle", 8}};
    for (int rep = 0; rep < 5; ++rep)
      r.samples.push_back(flops / variant_us<K, CM, CN, CK, WM, WN, S>(v, g, buf) * 1e-6);
    out.push_back(r);
  }
}

std::vector<Result> run_anatomy(const Device& dev) {
  const std::size_t elems = std::size_t(kSize) * kSize;
  // A (dense, or the 2:4 kernel's kept half), B, D; 2:4 metadata: 4 bits a kept pair,
  // 0x4 = elements 0 and 1 of each 4 (ordered, as mma.sp::ordered_metadata requires).
  DeviceBuffer a(elems * 2), b(elems * 2), d(elems * 4), meta(elems / 8);
  fill_random_f16<<<4 * dev.sm_count, 256>>>(static_cast<__half*>(a.p), elems, 1u);
  fill_random_f16<<<4 * dev.sm_count, 256>>>(static_cast<__half*>(b.p), elems, 2u);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemset(meta.p, 0x44, elems / 8));
  CUDA_CHECK(cudaDeviceSynchronize());
  GemmBuffers buf;
  buf.a = a.p;
  buf.a_meta = meta.p;
  buf.b = b.p;
  buf.d = d.p;
  std::vector<Result> out;
#define X(cm, cn, ck, wm, wn, st) time_tile<GemmKernel::Dense, cm, cn, ck, wm, wn, st>(buf, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
#define X(cm, cn, ck, wm, wn, st) time_tile<GemmKernel::Sparse24, cm, cn, ck, wm, wn, st>(buf, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return out;
}

}  // namespace

std::vector<Bench> mainloop_benches() { return {{"mainloop_anatomy", false, run_anatomy}}; }

}  // namespace stcsim::ubench
