// What the validation harness's mainloops issue besides their mma and fragment loads
// (KernelMapping::loop), per kernel, tile and mainloop parts: counted by
// scripts/count_harness_instructions.py in their PTX (nvcc 13.0, -O3, sm_90;
// validation/cuda/gemm_dense.cu, gemm_sp24.cu, gemm_bsr.cu and
// validation/ubench/mainloop_bench.cu). stcsim validate simulates our kernels with these,
// and the mainloop-anatomy microbenchmark its variants. The instruction counts are PTX's;
// the cycles and the rolled k-sub's later fragment group are the SASS's, read from the
// cubins by scripts/sass_schedule.py --table. Rerun both after changing a kernel's loop.
#pragma once
#include <optional>
#include <string>

#include "models/mapping/kernel_mapping.h"

namespace stcsim {

// `kernel`: "dense" (stcsim_dense), "sp24" (stcsim_sp24) or "bsr" (stcsim_bsr); the tile
// is m's cta and warp tile and stages; `parts` the MainloopPart bits (the anatomy's
// variants: dense and sp24 only). nullopt: a tile or variant the harness does not compile.
std::optional<LoopInstructions> harness_loop_instructions(const std::string& kernel,
                                                          const KernelMapping& m,
                                                          unsigned parts = kMainloopAll);

}  // namespace stcsim
