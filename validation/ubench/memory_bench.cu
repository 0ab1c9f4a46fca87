// Memory paths: ld.shared (v4), ldmatrix x1/x2/x4 and cp.async (16 B, L2 to shared)
// throughput in bytes per clock per SM; the bulk copy engine (cp.async.bulk, the TMA's
// 1-D form, sm_90) and L2 / DRAM read bandwidth in GB/s (events) and bytes per clock;
// pointer-chase latency of L1, L2 and DRAM, and the per-line L2 latency from one SM
// (two clusters: the near and the far partition).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "models/common/link_fit.h"
#include "models/common/median.h"
#include "validation/harness/cuda_check.h"
#include "validation/ubench/device_util.h"
#include "validation/ubench/ubench.h"

namespace stcsim::ubench {
namespace {

__device__ __forceinline__ void cta_clock_begin(long long& t0, long long& t1) {
  if (threadIdx.x == 0) t0 = 0x7FFFFFFFFFFFFFFF, t1 = 0;
  __syncthreads();
}
__device__ __forceinline__ void cta_clock_end(long long& t0, long long& t1, long long start,
                                              long long end, long long* out) {
  atomicMin(reinterpret_cast<unsigned long long*>(&t0), static_cast<unsigned long long>(start));
  atomicMax(reinterpret_cast<unsigned long long*>(&t1), static_cast<unsigned long long>(end));
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}

// kind 0: ld.shared.v4; 1, 2, 4: ldmatrix x1, x2, x4 (conflict-free rows).
template <int kind>
__global__ void smem_loop(int iters, long long* clocks, unsigned* sink) {
  __shared__ __align__(16) std::uint32_t buf[8192];
  __shared__ long long t0, t1;
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) buf[i] = i * 2654435761u;
  cta_clock_begin(t0, t1);
  const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(buf));
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::uint32_t own = (warp * 32 + lane) * 16;
  std::uint32_t acc = 0;
  const long long start = clock64();
  for (int it = 0; it < iters; ++it) {
    // A new 512 B window every iteration (64 windows, each warp's 32 rows of 16 B
    // consecutive: conflict-free). With two alternating windows ptxas hoisted the loads
    // out of the loop (an H200, 2026-11-26: "483 B/clk/SM" for ld.shared.v4 and 972 for
    // ldmatrix x1, both the speed of the XORs alone): no address may repeat across
    // iterations in a way the compiler can prove.
    const std::uint32_t addr = base + (own + std::uint32_t(it) * 512u) % 32768u;
    std::uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if constexpr (kind == 0)
      asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                   : "r"(addr));
    if constexpr (kind == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(addr));
    if constexpr (kind == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                   : "=r"(r0), "=r"(r1)
                   : "r"(addr));
    if constexpr (kind == 4)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                   : "r"(addr));
    acc ^= r0 ^ r1 ^ r2 ^ r3;
  }
  const long long end = clock64();
  if (acc == 0x12345u) *sink = acc;
  cta_clock_end(t0, t1, start, end, clocks);
}

// `group` iterations (4 KiB each at 256 threads) are in flight before each wait_group 0.
// The address arithmetic is an add and a compare a copy. Until 2026-11-26 (evening) the
// loop computed each source with a 64-bit remainder (a software routine of dependent
// instructions) and wrote every copy to one 4 KiB slot; it then read about 10.8 B/clk/SM
// from DRAM and from L2 alike, under what our own GEMM kernels move through cp.async.
// Both were changed at once, so the gain (L2 at 64 KiB: 10.4 -> 32.5) is not split
// between them; the remainder's dependent chain is the likelier cause.
// The source stride (grid x 4 KiB) must not exceed src_bytes: one subtraction wraps it.
// half_lines: each 16 B copy lands in the first 64 B of a 128 B line and the next 64 B of
// offsets in the next line (the source spans twice src_bytes): the 2:4 kernel's compressed
// A rows are 64 B a k-tile, so its copies touch twice the lines a dense tile's bytes do.
__global__ void cp_async_loop(const char* src, long long src_bytes, int iters, int group,
                              long long* clocks, bool half_lines = false) {
  __shared__ __align__(128) char buf[32768];
  __shared__ long long t0, t1;
  cta_clock_begin(t0, t1);
  // Eight 4 KiB slots in turn, as a GEMM's stages are: no copy overwrites the bytes of the
  // seven before it (at 16 per wait, copies it and it + 8 share a slot in flight).
  const std::uint32_t dst0 =
      static_cast<std::uint32_t>(__cvta_generic_to_shared(buf)) + threadIdx.x * 16 % 4096;
  // Grid-stride: no two CTAs read the same bytes, so every line comes from DRAM.
  const long long stride = (long long)gridDim.x * blockDim.x * 16;
  long long off = ((long long)blockIdx.x * blockDim.x * 16 + threadIdx.x * 16) % src_bytes;
  const long long start = clock64();
  for (int it = 0; it < iters; ++it) {
    const std::uint32_t dst = dst0 + (it & 7) * 4096;
    const long long at = half_lines ? off + (off & ~63LL) : off;  // (off / 64) * 128 + off % 64
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src + at));
    asm volatile("cp.async.commit_group;\n" ::);
    if (it % group == group - 1) asm volatile("cp.async.wait_group 0;\n" ::);
    off += stride;
    if (off >= src_bytes) off -= src_bytes;
  }
  asm volatile("cp.async.wait_group 0;\n" ::);
  const long long end = clock64();
  cta_clock_end(t0, t1, start, end, clocks);
}

// One thread per CTA issues 16 KiB bulk copies into shared memory, each completing on an
// mbarrier (expect_tx), two in flight.
__global__ void bulk_copy_loop(const char* src, long long src_bytes, int iters, long long* clocks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(128) char buf[2][16384];
  __shared__ __align__(8) unsigned long long bar[2];
  __shared__ long long t0, t1;
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(
          static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar[s]))));
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  cta_clock_begin(t0, t1);
  const long long start = clock64();
  if (threadIdx.x == 0) {
    for (int it = 0; it < iters; ++it) {
      const int s = it & 1;
      const std::uint32_t b = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar[s]));
      if (it >= 2) {  // wait for the copy that used this buffer (phase of use it/2 - 1)
        const std::uint32_t phase = ((it / 2) - 1) & 1;
        asm volatile(
            "{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra "
            "W;\n}\n" ::"r"(b),
            "r"(phase));
      }
      const long long off = ((long long)(it * gridDim.x + blockIdx.x) * 16384) % src_bytes;
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16384;\n" ::"r"(b));
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16384, "
          "[%2];\n" ::"r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(buf[s]))),
          "l"(src + off), "r"(b)
          : "memory");
    }
    for (int it = iters > 2 ? iters - 2 : 0; it < iters; ++it) {
      const std::uint32_t b = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar[it & 1]));
      asm volatile(
          "{\n.reg .pred p;\nW2: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra "
          "W2;\n}\n" ::"r"(b),
          "r"((it / 2) & 1));
    }
  }
  const long long end = clock64();
  cta_clock_end(t0, t1, start, end, clocks);
#endif
}

__global__ void read_loop(const uint4* p, long long n, int passes, unsigned* sink,
                          long long* clocks) {
  __shared__ long long t0, t1;
  cta_clock_begin(t0, t1);
  unsigned acc = 0;
  const long long start = clock64();
  for (int k = 0; k < passes; ++k)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
      const uint4 v = __ldcg(p + i);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  const long long end = clock64();
  if (acc == 0x9E3779B9u) *sink = acc;
  cta_clock_end(t0, t1, start, end, clocks);
}

// One thread: `steps` dependent loads along the chain; clocks per load. cached: ld.ca (L1).
template <bool cached>
__global__ void chase(const unsigned* next, unsigned first, int steps, long long* out,
                      unsigned* sink) {
  unsigned j = first;
  for (int i = 0; i < 64; ++i) j = cached ? __ldca(next + j) : __ldcg(next + j);  // warm the path
  const long long start = clock64();
  for (int i = 0; i < steps; ++i) j = cached ? __ldca(next + j) : __ldcg(next + j);
  const long long end = clock64();
  *sink = j;
  out[0] = (end - start);
}

// Per line: a line that points to itself, chased `steps` times from L2 (ld.cg).
__global__ void line_latency(const unsigned* buf, const unsigned* lines, int n_lines, int steps,
                             float* out, unsigned* smid) {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;\n" : "=r"(sm));
  *smid = sm;
  for (int l = 0; l < n_lines; ++l) {
    unsigned j = lines[l];
    j = __ldcg(buf + j);
    const long long start = clock64();
    for (int i = 0; i < steps; ++i) j = __ldcg(buf + j);
    const long long end = clock64();
    out[l] = float(end - start) / steps + (j == 0xFFFFFFFFu ? 1.f : 0.f);
  }
}

struct Scratch {
  long long* clocks = nullptr;
  unsigned* sink = nullptr;
  explicit Scratch(int n) {
    CUDA_CHECK(cudaMalloc(&clocks, sizeof(long long) * std::max(n, 1)));
    CUDA_CHECK(cudaMalloc(&sink, 64));
  }
  ~Scratch() {
    cudaFree(clocks);
    cudaFree(sink);
  }
  std::vector<long long> get(int n) {
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<long long> v(n);
    CUDA_CHECK(cudaMemcpy(v.data(), clocks, sizeof(long long) * n, cudaMemcpyDeviceToHost));
    return v;
  }
};

template <int kind>
std::vector<Result> run_smem(const Device& dev, const char* name, double bytes_per_warp_op) {
  Scratch s(dev.sm_count);
  Result r{name, "throughput", "B/clk/SM",
           "every SM, 1 CTA of 1024 threads, conflict-free addresses"};
  const int iters = 4096;
  r.params = {{"threads", 1024}, {"iterations", iters}};
  for (int rep = 0; rep < 5; ++rep) {
    smem_loop<kind><<<dev.sm_count, 1024>>>(iters, s.clocks, s.sink);
    CUDA_CHECK(cudaGetLastError());
    for (long long c : s.get(dev.sm_count))
      r.samples.push_back(bytes_per_warp_op * 32 * iters / double(c));
  }
  return {r};
}

std::vector<Result> run_copy_engines(const Device& dev) {
  // DRAM-resident and larger than either loop reads on up to 248 SMs (2048 x 4 KiB and
  // 1024 x 16 KiB per SM), so that no line is read twice.
  const long long src_bytes = 1LL << 32;
  DeviceBuffer src(src_bytes);
  Scratch s(dev.sm_count);
  std::vector<Result> out;
  {
    const int iters = 2048, threads = 256;
    Result gbs{"cp_async_16B_dram", "bandwidth", "GB/s",
               "every SM, 256 threads, 16 B cp.async.cg into shared"};
    Result per{"cp_async_16B_dram", "throughput", "B/clk/SM", gbs.what};
    gbs.params =
        per.params = {{"threads", threads}, {"iterations", iters}, {"source_bytes", src_bytes}};
    for (int rep = 0; rep < 5; ++rep) {
      const double us = event_us([&] {
        cp_async_loop<<<dev.sm_count, threads>>>(static_cast<const char*>(src.p), src_bytes, iters,
                                                 8, s.clocks);
      });
      CUDA_CHECK(cudaGetLastError());
      const double bytes = double(dev.sm_count) * threads * 16.0 * iters;
      gbs.samples.push_back(bytes / us * 1e-3);
      for (long long c : s.get(dev.sm_count))
        per.samples.push_back(threads * 16.0 * iters / double(c));
    }
    out.push_back(gbs);
    out.push_back(per);
  }
  // The same loop with 4 to 64 KiB requested per SM before each wait, from DRAM and from
  // an L2-resident source: how an SM's cp.async throughput grows with the bytes it keeps
  // in flight (Little's law) tells a limit on its outstanding requests from the latency.
  const long long l2_src = std::max(1LL << 20, dev.l2_bytes / 4);
  int launch = 0;
  for (int sweep = 0; sweep < 4; ++sweep) {
    // From DRAM, consecutive launches read opposite halves of the source (each reads 4 MiB
    // per SM), so none finds the last one's lines in the L2: the model flushes between them.
    // The third sweep: from L2 again, on half lines (the source spans twice its bytes).
    // The fourth: from L2 on one SM alone (a grid of one CTA), up to 128 KiB in flight:
    // with every SM reading, the L2's own bandwidth (about 30 B/clk a SM on the H200) caps
    // the sweep; alone, an SM is held back only by its own path to the L2 (its link, its
    // outstanding requests), which bounds a CTA's prologue (docs/notes.md, session 29).
    const bool from_l2 = sweep > 0, half = sweep == 2, one_sm = sweep == 3;
    const long long bytes = from_l2 ? l2_src : src_bytes / 2;
    const int grid = one_sm ? 1 : dev.sm_count;
    const std::vector<int> groups =
        one_sm ? std::vector<int>{1, 2, 4, 8, 16, 32} : std::vector<int>{1, 2, 4, 8, 16};
    std::vector<double> group_bytes, rates;  // one SM: the sweep's line
    for (const int group : groups) {
      const int iters = 1024, threads = 256;
      const std::string name = std::string("cp_async_16B_") + (from_l2 ? "l2" : "dram") +
                               (half ? "_halfline" : "") + (one_sm ? "_one_sm" : "") +
                               "_inflight_" + std::to_string(4 * group) + "KiB";
      Result per{name, "throughput", "B/clk/SM",
                 std::string(one_sm ? "one SM alone (a grid of 1 CTA)" : "every SM") +
                     ", 256 threads, 16 B cp.async.cg into shared, " + std::to_string(group) +
                     " per thread before each wait_group 0" +
                     (from_l2 ? ", source resident in L2" : "") +
                     (half ? ", the first 64 B of each 128 B line" : "")};
      per.params = {
          {"threads", threads}, {"iterations", iters}, {"group", group}, {"source_bytes", bytes}};
      if (half) per.params["half_lines"] = true;
      if (one_sm) per.params["grid"] = 1;
      if (16LL * threads * grid > bytes)  // cp_async_loop wraps by one subtraction
        throw std::runtime_error(name + ": the grid's stride exceeds its source");
      // From L2: a first launch brings the source in, and is not counted. One SM gives one
      // sample a launch: more launches.
      for (int rep = from_l2 ? -1 : 0; rep < (one_sm ? 9 : 5); ++rep) {
        const char* base =
            static_cast<const char*>(src.p) + (from_l2 ? 0 : (launch++ % 2) * (src_bytes / 2));
        cp_async_loop<<<grid, threads>>>(base, bytes, iters, group, s.clocks, half);
        CUDA_CHECK(cudaGetLastError());
        const auto clocks = s.get(grid);
        if (rep < 0) continue;
        for (long long c : clocks) per.samples.push_back(threads * 16.0 * iters / double(c));
      }
      group_bytes.push_back(threads * 16.0 * group);
      rates.push_back(stcsim::median_of(per.samples));
      out.push_back(per);
    }
    if (one_sm) {
      // The line through the sweep (models/common/link_fit.h): the link's bytes per clock
      // and the round trip, as the model reports its own.
      const stcsim::LinkFit f = stcsim::fit_link(group_bytes, rates);
      Result link{stcsim::kOneSmLinkFigure, "throughput", "B/clk/SM", stcsim::kLinkFitWhat};
      Result trip{stcsim::kOneSmRoundTripFigure, "latency", "clk", stcsim::kLinkFitWhat};
      // No line (a sweep whose times do not grow with its bytes): no figure, not a NaN.
      if (std::isfinite(f.bytes_per_cycle)) {
        link.samples.push_back(f.bytes_per_cycle);
        trip.samples.push_back(f.round_trip_cycles);
        out.push_back(link);
        out.push_back(trip);
      }
    }
  }
  if (dev.cc_major >= 9) {
    const int iters = 1024;
    Result gbs{
        "bulk_copy_16KiB_dram", "bandwidth", "GB/s",
        "every SM, one thread issuing cp.async.bulk of 16 KiB to shared, 2 in flight, mbarrier"};
    Result per{"bulk_copy_16KiB_dram", "throughput", "B/clk/SM", gbs.what};
    gbs.params = per.params = {{"iterations", iters}, {"source_bytes", src_bytes}};
    for (int rep = 0; rep < 5; ++rep) {
      const double us = event_us([&] {
        bulk_copy_loop<<<dev.sm_count, 32>>>(static_cast<const char*>(src.p), src_bytes, iters,
                                             s.clocks);
      });
      CUDA_CHECK(cudaGetLastError());
      gbs.samples.push_back(double(dev.sm_count) * 16384.0 * iters / us * 1e-3);
      for (long long c : s.get(dev.sm_count)) per.samples.push_back(16384.0 * iters / double(c));
    }
    out.push_back(gbs);
    out.push_back(per);
  }
  return out;
}

std::vector<Result> run_bandwidth(const Device& dev) {
  std::vector<Result> out;
  Scratch s(dev.sm_count * 4);
  const long long l2_set = std::max(1LL << 20, dev.l2_bytes / 4);  // resident in L2
  const long long dram_set = 2LL << 30;
  struct Set {
    const char* name;
    long long bytes;
    int passes;
  };
  for (const Set& set : {Set{"l2_read", l2_set, 20}, Set{"dram_read", dram_set, 1}}) {
    const char* name = set.name;
    const long long bytes = set.bytes;
    const int passes = set.passes;
    DeviceBuffer buf(bytes);
    const int ctas = dev.sm_count * 4;
    Result gbs{name, "bandwidth", "GB/s", "every SM, 4 CTAs of 512 threads, 16 B ld.global.cg"};
    Result per{name, "throughput", "B/clk/SM", gbs.what};
    gbs.params = per.params = {{"bytes", bytes}, {"passes", passes}};
    read_loop<<<ctas, 512>>>(static_cast<const uint4*>(buf.p), bytes / 16, 1, s.sink,
                             s.clocks);  // warm
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int rep = 0; rep < 5; ++rep) {
      const double us = event_us([&] {
        read_loop<<<ctas, 512>>>(static_cast<const uint4*>(buf.p), bytes / 16, passes, s.sink,
                                 s.clocks);
      });
      CUDA_CHECK(cudaGetLastError());
      gbs.samples.push_back(double(bytes) * passes / us * 1e-3);
      const std::vector<long long> c = s.get(ctas);
      const long long longest = *std::max_element(c.begin(), c.end());
      per.samples.push_back(double(bytes) * passes / dev.sm_count / double(longest));
    }
    out.push_back(gbs);
    out.push_back(per);
  }
  return out;
}

// A random cyclic chain over `lines` lines of `stride` bytes (indices in 4-byte words).
std::vector<unsigned> make_chain(long long lines, long long stride, std::uint64_t seed) {
  std::vector<unsigned> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(seed));
  const long long words = lines * stride / 4;
  std::vector<unsigned> next(words, 0);
  for (long long i = 0; i < lines; ++i)
    next[order[i] * stride / 4] = unsigned(order[(i + 1) % lines] * stride / 4);
  return next;
}

std::vector<Result> run_latency(const Device& dev) {
  std::vector<Result> out;
  Scratch s(1);
  // `fresh`: every repetition walks on from where the last one stopped, so no line is read
  // twice (the chain is longer than all repetitions together). Restarting at the chain's
  // head made every repetition after the first an L2 hit: an H200's "DRAM latency" came
  // out at 294 clk, its L2 latency, with the first repetition's 686 as the maximum.
  struct Level {
    const char* name;
    long long bytes, stride;
    bool cached, fresh;
  };
  const Level levels[] = {{"l1_latency", 16 << 10, 128, true, false},
                          {"l2_latency", std::max(1LL << 20, dev.l2_bytes / 8), 128, false, false},
                          {"dram_latency", 1LL << 30, 1 << 15, false, true}};
  for (const Level& l : levels) {
    const std::vector<unsigned> next = make_chain(l.bytes / l.stride, l.stride, 7);
    DeviceBuffer buf(next.size() * 4);
    CUDA_CHECK(cudaMemcpy(buf.p, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    Result r{l.name, "latency", "clk", "one thread, dependent loads along a random chain"};
    const int steps = 4096;
    r.params = {{"footprint_bytes", l.bytes},
                {"stride_bytes", l.stride},
                {"load", l.cached ? "ld.ca" : "ld.cg"}};
    unsigned first = 0;
    for (int rep = 0; rep < 5; ++rep) {
      const auto* chain = static_cast<const unsigned*>(buf.p);
      if (l.cached)
        chase<true><<<1, 1>>>(chain, first, steps, s.clocks, s.sink);
      else
        chase<false><<<1, 1>>>(chain, first, steps, s.clocks, s.sink);
      CUDA_CHECK(cudaGetLastError());
      r.samples.push_back(double(s.get(1)[0]) / steps);
      if (l.fresh) CUDA_CHECK(cudaMemcpy(&first, s.sink, 4, cudaMemcpyDeviceToHost));
    }
    out.push_back(r);
  }
  // Per-line L2 latency from one SM: lines 4 KiB apart over 8 MiB, each pointing to itself.
  const int n_lines = 512;
  const long long stride = 4096;
  std::vector<unsigned> buf_h(std::size_t(n_lines) * stride / 4), lines(n_lines);
  for (int i = 0; i < n_lines; ++i) lines[i] = unsigned(i * stride / 4), buf_h[lines[i]] = lines[i];
  DeviceBuffer buf(buf_h.size() * 4), ln(lines.size() * 4), lat(n_lines * 4);
  CUDA_CHECK(cudaMemcpy(buf.p, buf_h.data(), buf_h.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(ln.p, lines.data(), lines.size() * 4, cudaMemcpyHostToDevice));
  line_latency<<<1, 1>>>(static_cast<const unsigned*>(buf.p), static_cast<const unsigned*>(ln.p),
                         n_lines, 64, static_cast<float*>(lat.p), s.sink);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> v(n_lines);
  unsigned sm = 0;
  CUDA_CHECK(cudaMemcpy(v.data(), lat.p, n_lines * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sm, s.sink, 4, cudaMemcpyDeviceToHost));
  std::vector<double> sorted(v.begin(), v.end());
  std::sort(sorted.begin(), sorted.end());
  std::size_t cut = 1;  // the largest gap splits near from far
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] - sorted[i - 1] > sorted[cut] - sorted[cut - 1]) cut = i;
  Result near{"l2_latency_near", "latency", "clk",
              "per-line L2 latency from one SM, lower cluster"};
  Result far{"l2_latency_far", "latency", "clk", "per-line L2 latency from one SM, upper cluster"};
  near.samples.assign(sorted.begin(), sorted.begin() + cut);
  far.samples.assign(sorted.begin() + cut, sorted.end());
  near.params = far.params = {{"sm", sm},
                              {"lines", n_lines},
                              {"line_stride_bytes", stride},
                              {"split_at_clk", 0.5 * (sorted[cut] + sorted[cut - 1])}};
  out.push_back(near);
  out.push_back(far);
  return out;
}

}  // namespace

std::vector<Bench> memory_benches() {
  return {
      {"ld_shared", false, [](const Device& d) { return run_smem<0>(d, "ld_shared_v4", 512); }},
      {"ldmatrix_x1", false, [](const Device& d) { return run_smem<1>(d, "ldmatrix_x1", 128); }},
      {"ldmatrix_x2", false, [](const Device& d) { return run_smem<2>(d, "ldmatrix_x2", 256); }},
      {"ldmatrix_x4", false, [](const Device& d) { return run_smem<4>(d, "ldmatrix_x4", 512); }},
      {"copy_engines", false, run_copy_engines},
      {"bandwidth", false, run_bandwidth},
      {"latency", false, run_latency},
  };
}

}  // namespace stcsim::ubench
