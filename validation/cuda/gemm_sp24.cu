// Launches the 2:4 sparse GEMM kernel (sp24_kernel.cuh) at every compiled tile.
#include "validation/cuda/sp24_kernel.cuh"

namespace stcsim::validation {

#define STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, s) \
  KernelInstance<sp24_gemm<cm, cn, ck, wm, wn, s>, GemmKernel::Sparse24, cm, cn, ck, wm, wn, s>

cudaError_t launch_sp24(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, st)::launch(g, buf, s);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

cudaError_t resources_sp24(const GemmLaunch& g, KernelResources* out) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_SP24_INSTANCE(cm, cn, ck, wm, wn, st)::resources(g, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
