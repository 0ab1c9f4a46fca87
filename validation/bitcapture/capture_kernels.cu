// The bit-capture kernels: one CTA per record, one instruction each. They only move the
// record's registers in, issue the instruction once and move D out, so every layout
// question is the host's (instruction_layout.h) and the record holds the raw bits the
// instruction read and wrote. mma.sync / mma.sp: sm_80+. wgmma / wgmma.sp: sm_90a only
// (the kernels are empty in other images and never launched there).
#include <cstdint>

#include "validation/bitcapture/capture_kernels.h"
#include "validation/bitcapture/wgmma_smem.h"
#include "validation/harness/cuda_check.h"
#include "validation/ubench/wgmma_ops.cuh"

namespace stcsim::validation::bits {
namespace {

struct Offsets {
  int record_words, a, b, c, e, d;
};

template <bool Bf16>
__device__ __forceinline__ void mma_sync_f32(float (&d)[4], const std::uint32_t (&a)[4],
                                             const std::uint32_t (&b)[2]) {
  if constexpr (Bf16)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <bool Bf16>
__device__ __forceinline__ void mma_sp_f32(float (&d)[4], const std::uint32_t (&a)[4],
                                           const std::uint32_t (&b)[4], std::uint32_t e) {
  if constexpr (Bf16)
    asm volatile(
        "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0, %1, %2, "
        "%3}, "
        "{%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "r"(e));
  else
    asm volatile(
        "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "r"(e));
}

template <bool Sparse, bool Bf16>
__global__ void mma_capture(std::uint32_t* words, Offsets o) {
  std::uint32_t* r = words + std::size_t(blockIdx.x) * o.record_words;
  const int lane = threadIdx.x;
  std::uint32_t a[4];
  float d[4];
  for (int i = 0; i < 4; ++i) {
    a[i] = r[o.a + lane * 4 + i];
    d[i] = __uint_as_float(r[o.c + lane * 4 + i]);
  }
  if constexpr (Sparse) {
    std::uint32_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = r[o.b + lane * 4 + i];
    mma_sp_f32<Bf16>(d, a, b, r[o.e + lane]);
  } else {
    std::uint32_t b[2] = {r[o.b + lane * 2], r[o.b + lane * 2 + 1]};
    mma_sync_f32<Bf16>(d, a, b);
  }
  for (int i = 0; i < 4; ++i) r[o.d + lane * 4 + i] = __float_as_uint(d[i]);
}

template <int N, bool Sparse, bool Bf16>
__global__ void wgmma_capture(std::uint32_t* words, Offsets o) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int K = Sparse ? 32 : 16;
  __shared__ __align__(128) std::uint32_t b_smem[K * N / 2];
  std::uint32_t* r = words + std::size_t(blockIdx.x) * o.record_words;
  const int t = threadIdx.x;
  for (int i = t; i < K * N / 2; i += blockDim.x) b_smem[i] = r[o.b + i];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  std::uint32_t a[4];
  for (int i = 0; i < 4; ++i) a[i] = r[o.a + t * 4 + i];
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i) d[i] = __uint_as_float(r[o.c + t * (N / 2) + i]);
  const std::uint64_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(b_smem));
  const std::uint64_t desc = ((addr & 0x3FFFF) >> 4) | (std::uint64_t(kWgmmaLboBytes >> 4) << 16) |
                             (std::uint64_t(wgmma_sbo_bytes(K) >> 4) << 32);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  if constexpr (Sparse) {
    const std::uint32_t e = r[o.e + t];
    if constexpr (Bf16) {
      if constexpr (N == 8) ubench::wgmma_sp_bf16_m64n8k32(d, a, desc, e);
      if constexpr (N == 64) ubench::wgmma_sp_bf16_m64n64k32(d, a, desc, e);
      if constexpr (N == 256) ubench::wgmma_sp_bf16_m64n256k32(d, a, desc, e);
    } else {
      if constexpr (N == 8) ubench::wgmma_sp_m64n8k32(d, a, desc, e);
      if constexpr (N == 64) ubench::wgmma_sp_m64n64k32(d, a, desc, e);
      if constexpr (N == 256) ubench::wgmma_sp_m64n256k32(d, a, desc, e);
    }
  } else {
    if constexpr (Bf16) {
      if constexpr (N == 8) ubench::wgmma_bf16_m64n8k16(d, a, desc);
      if constexpr (N == 64) ubench::wgmma_bf16_m64n64k16(d, a, desc);
      if constexpr (N == 256) ubench::wgmma_bf16_m64n256k16(d, a, desc);
    } else {
      if constexpr (N == 8) ubench::wgmma_m64n8k16(d, a, desc);
      if constexpr (N == 64) ubench::wgmma_m64n64k16(d, a, desc);
      if constexpr (N == 256) ubench::wgmma_m64n256k16(d, a, desc);
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int i = 0; i < N / 2; ++i) r[o.d + t * (N / 2) + i] = __float_as_uint(d[i]);
#else
  (void)words;
  (void)o;
#endif
}

template <int N, bool Sparse>
void launch_wgmma(bool bf16, std::uint32_t* words, int records, Offsets o) {
  bf16 ? wgmma_capture<N, Sparse, true><<<records, 128>>>(words, o)
       : wgmma_capture<N, Sparse, false><<<records, 128>>>(words, o);
}

}  // namespace

void run_capture_group(const GroupSpec& g, std::vector<std::uint32_t>& words, int records) {
  std::uint32_t* dev = nullptr;
  CUDA_CHECK(cudaMalloc(&dev, words.size() * 4));
  CUDA_CHECK(cudaMemcpy(dev, words.data(), words.size() * 4, cudaMemcpyHostToDevice));
  const Offsets o{g.record_words(), g.a_offset(), g.b_offset(),
                  g.c_offset(),     g.e_offset(), g.d_offset()};
  const bool bf16 = g.type == functional::MmaType::BF16;
  switch (g.instr) {
    case Instr::MmaSync:
      bf16 ? mma_capture<false, true><<<records, 32>>>(dev, o)
           : mma_capture<false, false><<<records, 32>>>(dev, o);
      break;
    case Instr::MmaSp:
      bf16 ? mma_capture<true, true><<<records, 32>>>(dev, o)
           : mma_capture<true, false><<<records, 32>>>(dev, o);
      break;
    case Instr::Wgmma:
    case Instr::WgmmaSp: {
      const bool sp = g.instr == Instr::WgmmaSp;
      if (g.n == 8)
        sp ? launch_wgmma<8, true>(bf16, dev, records, o)
           : launch_wgmma<8, false>(bf16, dev, records, o);
      else if (g.n == 64)
        sp ? launch_wgmma<64, true>(bf16, dev, records, o)
           : launch_wgmma<64, false>(bf16, dev, records, o);
      else if (g.n == 256)
        sp ? launch_wgmma<256, true>(bf16, dev, records, o)
           : launch_wgmma<256, false>(bf16, dev, records, o);
      else
        throw std::runtime_error("no capture kernel for " + g.name());
      break;
    }
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(words.data(), dev, words.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dev));
}

}  // namespace stcsim::validation::bits
