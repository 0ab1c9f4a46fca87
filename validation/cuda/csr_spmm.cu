// The row-split CSR SpMM kernel (csr_spmm.h): CUDA cores, fp16 in, fp32 FMA.
#include <cuda_fp16.h>

#include <cstddef>

#include "validation/cuda/csr_spmm.h"

namespace stcsim::validation {
namespace {

// V consecutive halves of an X^T row as floats: one vector load when the whole vector is
// inside the row and aligned (M a multiple of V), else element by element with the
// columns past M read as zero (the last column tile's residue).
template <int V>
__device__ __forceinline__ void load_x(const __half* row, int c0, int m, bool vec, float (&x)[V]) {
  if (vec) {
    if constexpr (V == 1) {
      x[0] = __half2float(row[c0]);
    } else if constexpr (V == 2) {
      const float2 f = __half22float2(*reinterpret_cast<const __half2*>(row + c0));
      x[0] = f.x, x[1] = f.y;
    } else {
      const uint2 u = *reinterpret_cast<const uint2*>(row + c0);
      const float2 lo = __half22float2(*reinterpret_cast<const __half2*>(&u.x));
      const float2 hi = __half22float2(*reinterpret_cast<const __half2*>(&u.y));
      x[0] = lo.x, x[1] = lo.y, x[2] = hi.x, x[3] = hi.y;
    }
  } else {
    for (int v = 0; v < V; ++v) x[v] = c0 + v < m ? __half2float(row[c0 + v]) : 0.0f;
  }
}

template <int V, bool F32>
__global__ void __launch_bounds__(kCsrWarps * 32) csr_spmm(CsrSpmmLaunch l, CsrSpmmBuffers b) {
  // Each warp's staged nonzeros: values already in fp32, their K columns.
  __shared__ float vals[kCsrWarps][kCsrStageNnz];
  __shared__ int cols[kCsrWarps][kCsrStageNnz];
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const int slot = int(blockIdx.x) * kCsrWarps + warp;
  if (slot >= l.n) return;  // the last CTA's missing rows (no CTA-wide barrier below)
  const int row = b.row_order[slot];
  const int begin = b.row_ptr[row], end = b.row_ptr[row + 1];
  const int c0 = int(blockIdx.y) * 32 * V + lane * V;
  const bool vec = l.m % V == 0 && c0 + V <= l.m;
  const __half* values = static_cast<const __half*>(b.values);
  const __half* xt = static_cast<const __half*>(b.xt);
  float acc[V] = {};
  for (int s = begin; s < end; s += kCsrStageNnz) {
    const int count = min(kCsrStageNnz, end - s);
    if (lane < count) {
      vals[warp][lane] = __half2float(values[s + lane]);
      cols[warp][lane] = b.col_idx[s + lane];
    }
    __syncwarp();
    if (c0 < l.m)
      for (int j = 0; j < count; ++j) {
        float x[V];
        load_x<V>(xt + std::size_t(cols[warp][j]) * l.m, c0, l.m, vec, x);
        const float w = vals[warp][j];
        for (int v = 0; v < V; ++v) acc[v] = fmaf(w, x[v], acc[v]);
      }
    __syncwarp();  // the next stage overwrites the staged nonzeros
  }
  const std::size_t out = std::size_t(row) * l.m + c0;
  for (int v = 0; v < V; ++v) {
    if (c0 + v >= l.m) break;
    if constexpr (F32)
      static_cast<float*>(b.yt)[out + v] = acc[v];
    else
      static_cast<__half*>(b.yt)[out + v] = __float2half_rn(acc[v]);
  }
}

template <int V, bool F32>
cudaError_t launch_v(const CsrSpmmLaunch& l, const CsrSpmmBuffers& b, cudaStream_t s) {
  const dim3 grid((l.n + kCsrWarps - 1) / kCsrWarps, (l.m + 32 * V - 1) / (32 * V));
  csr_spmm<V, F32><<<grid, kCsrWarps * 32, 0, s>>>(l, b);
  return cudaGetLastError();
}

template <int V>
const void* kernel_of(bool f32) {
  return f32 ? reinterpret_cast<const void*>(csr_spmm<V, true>)
             : reinterpret_cast<const void*>(csr_spmm<V, false>);
}

}  // namespace

cudaError_t launch_csr_spmm(const CsrSpmmLaunch& l, const CsrSpmmBuffers& b, cudaStream_t s) {
  if (l.n <= 0 || l.m <= 0 || l.k <= 0) return cudaErrorInvalidValue;
  switch (l.tile_cols) {
    case 32:
      return l.out_f32 ? launch_v<1, true>(l, b, s) : launch_v<1, false>(l, b, s);
    case 64:
      return l.out_f32 ? launch_v<2, true>(l, b, s) : launch_v<2, false>(l, b, s);
    case 128:
      return l.out_f32 ? launch_v<4, true>(l, b, s) : launch_v<4, false>(l, b, s);
  }
  return cudaErrorInvalidValue;
}

cudaError_t csr_spmm_resources(const CsrSpmmLaunch& l, int* registers, int* ctas_per_sm) {
  const void* k = l.tile_cols == 32    ? kernel_of<1>(l.out_f32)
                  : l.tile_cols == 64  ? kernel_of<2>(l.out_f32)
                  : l.tile_cols == 128 ? kernel_of<4>(l.out_f32)
                                       : nullptr;
  if (!k) return cudaErrorInvalidValue;
  cudaFuncAttributes a{};
  if (const cudaError_t e = cudaFuncGetAttributes(&a, k)) return e;
  *registers = a.numRegs;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(ctas_per_sm, k, kCsrWarps * 32, 0);
}

}  // namespace stcsim::validation
