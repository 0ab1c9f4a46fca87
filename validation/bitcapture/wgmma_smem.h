// Where the wgmma B operand (K x N, f16/bf16) sits in shared memory for the bit capture:
// K-major, no swizzle ("interleave"), as the PTX ISA's shared-memory matrix layout for
// wgmma defines it. The matrix is made of 8 x 8 core matrices (8 N-rows of 16 bytes, each
// row 8 consecutive k of one column n), each 128 contiguous bytes:
//   leading byte offset (LBO) = 128: from one core matrix to the next along K;
//   stride byte offset (SBO) = K * 16: from one group of 8 columns n to the next.
// Shared by the capture kernels (the descriptor) and the host (the image they copy in).
#pragma once

#if defined(__CUDACC__)
#define STCSIM_HOST_DEVICE __host__ __device__
#else
#define STCSIM_HOST_DEVICE
#endif

namespace stcsim::validation::bits {

inline constexpr int kWgmmaLboBytes = 128;
STCSIM_HOST_DEVICE constexpr int wgmma_sbo_bytes(int k) { return k * 16; }

// Element (k, n) of B: its index in the image, in 16-bit halves.
STCSIM_HOST_DEVICE constexpr int wgmma_b_half_index(int k, int n, int k_total) {
  return (n / 8) * (wgmma_sbo_bytes(k_total) / 2) + (k / 8) * (kWgmmaLboBytes / 2) + (n % 8) * 8 +
         (k % 8);
}

}  // namespace stcsim::validation::bits
