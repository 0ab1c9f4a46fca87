// The validation harness's two multistage kernels (dense on mma.sync, 2:4 on mma.sp) at
// the tiles it compiles, planned on the model as the harness launches them: the shared
// ground of the mainloop anatomy (mainloop_anatomy.cpp) and the CTA-phase benchmark
// (cta_phases.cpp), so both simulate the same kernels.
#pragma once
#include <cstdint>
#include <string>

#include "models/kernels/i_kernel.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim::anatomy {

constexpr std::int64_t kSize = 4096;  // M = N, and K unless a figure names another

struct Tile {
  int cta_m, cta_n, cta_k, warp_m, warp_n, stages;
};
// The harness's tiles (validation/cuda/tile_geometry.h, STCSIM_VALIDATION_TILES).
constexpr Tile kTiles[] = {{256, 128, 64, 64, 64, 3},
                           {128, 128, 64, 64, 64, 4},
                           {128, 64, 64, 64, 32, 4},
                           {64, 64, 64, 32, 32, 6}};

std::string tile_name(const Tile& t);

// The harness's two kernels: dense on mma.sync, 2:4 on mma.sp.
struct Kernel {
  const char* name;
  NmSparsity sparsity;
  const char* mma_order;  // as validate simulates the harness's kernel (simulate.cpp)
};
inline const Kernel kKernels[] = {{"dense", {}, "rows"}, {"sp24", {2, 4}, "columns"}};

GemmOp anatomy_op(const Kernel& k, std::int64_t K = kSize);

// Why kernel k cannot run at tile t here (empty: it can): a GPU without mma.sp runs the
// dense kernel only; one whose CTAs get less shared memory than the tile's stages need (a
// V100's 96 KiB) fails the launch, as the harness's does.
std::string cannot_run(const Kernel& k, const Tile& t, const KernelEnv& env);
// Why neither kernel runs here at all (the multistage kernel's own refusal; empty: the
// dense one runs at some tile), for a benchmark's IMicrobenchmark::cannot_run.
std::string cannot_run(const KernelEnv& env);

// Kernel k at tile t on 4096 x 4096 x K with the mainloop parts `parts`
// (KernelMapping::mainloop_parts), as the harness launches it: swizzle 8, no split-K, the
// barrier after the k-tile's last mma, the variant's loop instructions from its PTX
// (models/mapping/harness_loop_instructions.h). Operands from gpu.allocate.
KernelPlan anatomy_plan(UbenchMachine& gpu, const Kernel& k, const Tile& t, unsigned parts,
                        std::int64_t K);

}  // namespace stcsim::anatomy
