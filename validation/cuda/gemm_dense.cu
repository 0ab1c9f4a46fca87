// Dense GEMM launches: the kernel of dense_kernel.cuh at each compiled tile.
#include "validation/cuda/dense_kernel.cuh"

namespace stcsim::validation {

#define STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, s) \
  KernelInstance<dense_gemm<cm, cn, ck, wm, wn, s>, GemmKernel::Dense, cm, cn, ck, wm, wn, s>

cudaError_t launch_dense(const GemmLaunch& g, const GemmBuffers& buf, cudaStream_t s) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, st)::launch(g, buf, s);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

cudaError_t resources_dense(const GemmLaunch& g, KernelResources* out) {
#define X(cm, cn, ck, wm, wn, st)                   \
  if (g.tile == KernelTile{cm, cn, ck, wm, wn, st}) \
    return STCSIM_DENSE_INSTANCE(cm, cn, ck, wm, wn, st)::resources(g, out);
  STCSIM_VALIDATION_TILES(X)
#undef X
  return cudaErrorInvalidValue;
}

}  // namespace stcsim::validation
