#include "validation/cuda/kernels.h"

namespace stcsim::validation {

const char* tile_mismatch(const GemmLaunch& g) {
  const KernelTile& t = g.tile;
  if (t.cta_m <= 0 || g.m <= 0 || g.m % t.cta_m) return "kernel M is not a multiple of cta_m";
  if (t.cta_n <= 0 || g.n <= 0 || g.n % t.cta_n) return "kernel N is not a multiple of cta_n";
  if (t.cta_k <= 0 || g.k <= 0 || g.k % t.cta_k) return "K is not a multiple of cta_k";
  return "";
}

cudaError_t launch_gemm(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t stream) {
  if (*tile_mismatch(g)) return cudaErrorInvalidValue;
  switch (g.kind) {
    case GemmKernel::Dense:
      return launch_dense(g, buf, stream);
    case GemmKernel::Sparse24:
      return launch_sp24(g, buf, stream);
    case GemmKernel::Bsr:
      return launch_bsr(g, buf, stream);
  }
  return cudaErrorInvalidValue;
}

cudaError_t kernel_resources(const GemmLaunch& g, KernelResources* out) {
  switch (g.kind) {
    case GemmKernel::Dense:
      return resources_dense(g, out);
    case GemmKernel::Sparse24:
      return resources_sp24(g, out);
    case GemmKernel::Bsr:
      return resources_bsr(g, out);
  }
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
