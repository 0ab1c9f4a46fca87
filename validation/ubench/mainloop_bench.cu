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

#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "models/common/cta_phases.h"
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

// The SM clock the launches just timed ran at, read right after them in the same stream:
// every SM's first thread counts clock64 against %globaltimer (ns) for `ns`. The power
// limiter moves the clock over milliseconds, so a 30 us probe straight after the last
// launch sees the clock it ran at; NVML's samples are too sparse for 1.5 ms samples.
__global__ void clock_probe(long long ns, long long* out) {
  if (threadIdx.x != 0) return;
  long long g0, g;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  } while (g - g0 < ns);
  out[2 * blockIdx.x] = clock64() - c0;
  out[2 * blockIdx.x + 1] = g - g0;
}

// MHz over every SM's probe (cycles over nanoseconds).
double probe_mhz(int sms, long long* scratch) {
  clock_probe<<<sms, 32>>>(30000, scratch);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> v(2 * std::size_t(sms));
  CUDA_CHECK(cudaMemcpy(v.data(), scratch, sizeof(long long) * v.size(), cudaMemcpyDeviceToHost));
  double cycles = 0, ns = 0;
  for (int i = 0; i < sms; ++i) cycles += double(v[2 * i]), ns += double(v[2 * i + 1]);
  return ns > 0 ? cycles / ns * 1e3 : 0;
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

constexpr int kSize = 4096;  // M = N, and K but for the K sweep
// The K sweep: mma_only and full again at shorter K (M = N = 4096, the same grid). A
// launch's time against K is a line: its slope is the loop's rate per k-tile, its
// intercept what every CTA pays once (prologue, epilogue, launch, the last wave's tail).
// At one K the two cannot be told apart; the model puts 4-17 us in the intercept.
constexpr int kSweepK[] = {1024, 2048};
bool swept(const Variant& v) {
  return std::string(v.name) == "mma_only" || std::string(v.name) == "full";
}

// The operands a variant runs on: random f16 in [-1, 1], or all zeros (a 2:4 kernel's
// metadata stays valid). On a GPU whose clock follows its power, zeros toggle fewer bits
// and may run faster at the same cycle counts; the model has no data dependence.
struct Operands {
  const GemmBuffers& random;
  const GemmBuffers& zeros;
  int sms;
  long long* probe;  // 2 x sms long longs for probe_mhz
};

// Variant v of one kernel at one tile and one K, 5 samples; figures at a K other than
// kSize are named with it (_k1024), on zero operands with _zeros. After each sample the
// SM clock it ran at (probe_mhz) goes into params.sm_clock_mhz (one per sample).
template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S>
Result time_variant(const Operands& ops, int v, int k, bool zeros = false) {
  const std::string tile = std::to_string(CM) + "x" + std::to_string(CN) + "x" +
                           std::to_string(CK) + "_" + std::to_string(WM) + "x" +
                           std::to_string(WN) + "_s" + std::to_string(S);
  GemmLaunch g;
  g.kind = K;
  const bool sparse = K == GemmKernel::Sparse24;
  const std::string kernel = sparse ? "sp24" : "dense";
  g.tile = KernelTile{CM, CN, CK, WM, WN, S};
  g.m = g.n = kSize;
  g.k = k;
  g.swizzle = 8;
  // f16 output, as the suites time these kernels (measure_gemm.cpp) and the model writes an
  // f16 GEMM's D; until 2026-11-28 05:30Z the anatomy wrote f32 (twice the bytes).
  g.out_f32 = false;
  const double flops = 2.0 * kSize * double(kSize) * k;
  const std::string suffix = (k == kSize ? "" : "_k" + std::to_string(k)) + (zeros ? "_zeros" : "");
  // A 2:4 GEMM's figure counts the dense GEMM's flops, as the suite's effective rates do.
  Result r{"mainloop_" + kernel + "_" + tile + "_" + kVariants[v].name + suffix, "throughput",
           "TFLOP/s",
           "4096x4096x" + std::to_string(k) + " " + kernel + " kernel, " + kVariants[v].what +
               (zeros ? ", all-zero operands" : "") +
               " (the whole GEMM's flops over the time; CUDA events, 5 launches a sample)"};
  r.params = {{"tile", tile},
              {"variant", kVariants[v].name},
              {"parts", kVariants[v].parts},
              {"m", kSize},
              {"n", kSize},
              {"k", k},
              {"swizzle", 8}};
  const GemmBuffers& buf = zeros ? ops.zeros : ops.random;
  std::vector<double> mhz;
  for (int rep = 0; rep < 5; ++rep) {
    r.samples.push_back(flops / variant_us<K, CM, CN, CK, WM, WN, S>(v, g, buf) * 1e-6);
    mhz.push_back(probe_mhz(ops.sms, ops.probe));
  }
  r.params["sm_clock_mhz"] = mhz;
  return r;
}

// The five variants of one kernel at one tile, then the K sweep, then mma_only and full on
// zero operands.
template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S>
void time_tile(const Operands& ops, std::vector<Result>& out) {
  for (int v = 0; v < int(std::size(kVariants)); ++v)
    out.push_back(time_variant<K, CM, CN, CK, WM, WN, S>(ops, v, kSize));
  for (const int k : kSweepK)
    for (int v = 0; v < int(std::size(kVariants)); ++v)
      if (swept(kVariants[v])) out.push_back(time_variant<K, CM, CN, CK, WM, WN, S>(ops, v, k));
  for (int v = 0; v < int(std::size(kVariants)); ++v)
    if (swept(kVariants[v]))
      out.push_back(time_variant<K, CM, CN, CK, WM, WN, S>(ops, v, kSize, true));
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
  DeviceBuffer a0(elems * 2), b0(elems * 2), probe(sizeof(long long) * 2 * dev.sm_count);
  CUDA_CHECK(cudaMemset(a0.p, 0, elems * 2));
  CUDA_CHECK(cudaMemset(b0.p, 0, elems * 2));
  GemmBuffers buf;
  buf.a = a.p;
  buf.a_meta = meta.p;
  buf.b = b.p;
  buf.d = d.p;
  GemmBuffers zero = buf;
  zero.a = a0.p;
  zero.b = b0.p;
  const Operands ops{buf, zero, dev.sm_count, static_cast<long long*>(probe.p)};
  std::vector<Result> out;
#define X(cm, cn, ck, wm, wn, st) time_tile<GemmKernel::Dense, cm, cn, ck, wm, wn, st>(ops, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
#define X(cm, cn, ck, wm, wn, st) time_tile<GemmKernel::Sparse24, cm, cn, ck, wm, wn, st>(ops, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return out;
}

// The CTA phases (issues 13, 15): the K sweep puts 15-35 us a launch at 4096^2 in what each
// CTA pays once, twice to ten times the model's. One launch of mma_only at K = 1024 (its
// prologue fills every stage and waits once, so the prologue is timed alone) after a warm-up,
// each CTA stamping clock64 at its start, after that wait, after the mainloop and after its
// epilogue's stores (GemmBuffers::cta_phases); the medians over the CTAs
// (models/common/cta_phases.h, as stcsim ubench reduces its own) tell the prologue, the
// epilogue, the refill of an SM's slot and whether co-resident CTAs run in step.
constexpr int kPhaseK = 1024;
constexpr const char* kPhaseMetrics[] = {"prologue", "loop", "epilogue", "refill", "corun_skew"};

template <GemmKernel K, int CM, int CN, int CK, int WM, int WN, int S>
void time_phases(const GemmBuffers& buf, std::vector<Result>& out) {
  using Instance = typename AnatomyKernel<K, CM, CN, CK, WM, WN, S, validation::kMma>::Instance;
  GemmLaunch g;
  g.kind = K;
  g.tile = KernelTile{CM, CN, CK, WM, WN, S};
  g.m = g.n = kSize;
  g.k = kPhaseK;
  g.swizzle = 8;
  g.out_f32 = false;
  const int ctas = (kSize / CM) * (kSize / CN);
  DeviceBuffer stamps(sizeof(long long) * validation::kCtaPhaseWords * std::size_t(ctas));
  CUDA_CHECK(cudaMemset(stamps.p, 0, sizeof(long long) * validation::kCtaPhaseWords * ctas));
  GemmBuffers stamped = buf;
  stamped.cta_phases = static_cast<long long*>(stamps.p);
  CUDA_CHECK(Instance::launch(g, buf, nullptr));  // the warm-up launch
  CUDA_CHECK(Instance::launch(g, stamped, nullptr));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<long long> w(std::size_t(validation::kCtaPhaseWords) * ctas);
  CUDA_CHECK(cudaMemcpy(w.data(), stamps.p, sizeof(long long) * w.size(), cudaMemcpyDeviceToHost));
  std::vector<CtaPhaseRecord> recs;
  for (int c = 0; c < ctas; ++c) {
    const long long* r = &w[std::size_t(c) * validation::kCtaPhaseWords];
    recs.push_back({int(r[0]), double(r[1]), double(r[2]), double(r[3]), double(r[4])});
  }
  const CtaPhaseSummary sum = summarize_cta_phases(recs);
  const double values[] = {sum.prologue, sum.loop, sum.epilogue, sum.refill, sum.corun_skew};
  validation::KernelResources res;
  CUDA_CHECK(Instance::resources(g, &res));
  const std::string kernel = K == GemmKernel::Sparse24 ? "sp24" : "dense";
  const std::string tile = std::to_string(CM) + "x" + std::to_string(CN) + "x" +
                           std::to_string(CK) + "_" + std::to_string(WM) + "x" +
                           std::to_string(WN) + "_s" + std::to_string(S);
  for (std::size_t i = 0; i < std::size(kPhaseMetrics); ++i) {
    if (std::isnan(values[i])) continue;  // refill: one wave; corun_skew: one CTA an SM
    Result r{"cta_phases_" + kernel + "_" + tile + "_mma_only_k" + std::to_string(kPhaseK),
             kPhaseMetrics[i], "clk",
             "4096x4096x" + std::to_string(kPhaseK) + " " + kernel +
                 " kernel, the mma alone after its stages once; the median over its " +
                 std::to_string(ctas) + " CTAs of clock64 stamps (one launch after a warm-up)"};
    r.params = {
        {"tile", tile}, {"variant", "mma_only"},         {"m", kSize}, {"n", kSize}, {"k", kPhaseK},
        {"swizzle", 8}, {"ctas_per_sm", res.ctas_per_sm}};
    r.samples.push_back(values[i]);
    out.push_back(std::move(r));
  }
}

std::vector<Result> run_cta_phases(const Device&) {
  const std::size_t elems = std::size_t(kSize) * kPhaseK;
  DeviceBuffer a(elems * 2), b(elems * 2), d(std::size_t(kSize) * kSize * 2), meta(elems / 8);
  fill_random_f16<<<1024, 256>>>(static_cast<__half*>(a.p), elems, 1u);
  fill_random_f16<<<1024, 256>>>(static_cast<__half*>(b.p), elems, 2u);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemset(meta.p, 0x44, elems / 8));
  CUDA_CHECK(cudaDeviceSynchronize());
  GemmBuffers buf;
  buf.a = a.p;
  buf.a_meta = meta.p;
  buf.b = b.p;
  buf.d = d.p;
  std::vector<Result> out;
#define X(cm, cn, ck, wm, wn, st) time_phases<GemmKernel::Dense, cm, cn, ck, wm, wn, st>(buf, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
#define X(cm, cn, ck, wm, wn, st) \
  time_phases<GemmKernel::Sparse24, cm, cn, ck, wm, wn, st>(buf, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return out;
}

}  // namespace

std::vector<Bench> mainloop_benches() {
  return {{"mainloop_anatomy", false, run_anatomy}, {"cta_phases", false, run_cta_phases}};
}

}  // namespace stcsim::ubench
