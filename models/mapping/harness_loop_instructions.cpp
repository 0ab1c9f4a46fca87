#include "models/mapping/harness_loop_instructions.h"

namespace stcsim {

namespace {

struct Row {
  const char* kernel;
  int cta_m, cta_n, cta_k, warp_m, warp_n, stages;
  unsigned parts;
  // The k-tile loop's head to its first ldmatrix (its first mma where it loads none), on
  // the path that skips the copies (the last S-1 k-tiles'), and what the copies add.
  int ktile_prelude, ktile_copy;
  int ksub_prelude;  // the 2:4 kernel's rolled k-sub loop: its head to its first ldmatrix
  // The same stretches in SASS stall-count cycles (the k-tile's prelude with its loop's tail
  // after the last mma; the k-sub's with its back edge), and the rolled k-sub's later
  // fragment group: LoopInstructions' *_cycles, ksub_rest_from, ksub_rest_gap.
  int ktile_prelude_cycles, ktile_copy_cycles, ksub_prelude_cycles, ksub_rest_from, ksub_rest_gap;
};

constexpr unsigned kFull = kMainloopAll;
constexpr unsigned kNoCopy = kMainloopBarrier | kMainloopFragments | kMainloopMma;
constexpr unsigned kNoCopyNoBarrier = kMainloopFragments | kMainloopMma;
constexpr unsigned kMmaOnly = kMainloopMma;
constexpr unsigned kNoMma = kMainloopCopy | kMainloopBarrier | kMainloopFragments;

// scripts/count_harness_instructions.py, 2026-11-28 (its "prelude", "copy" and "ksub_pre"
// columns), then scripts/sass_schedule.py --table, 2026-11-29 (the last five: the full
// kernels from gemm_*.cu's cubins, the variants from mainloop_bench.cu's).
constexpr Row kRows[] = {
    {"dense", 256, 128, 64, 64, 64, 3, kFull, 16, 83, 0, 70, 152, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kFull, 13, 104, 0, 70, 182, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kFull, 12, 48, 0, 58, 118, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kFull, 13, 38, 0, 46, 58, 0, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoCopy, 11, 0, 0, 64, 0, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoCopy, 8, 0, 0, 60, 0, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoCopy, 7, 0, 0, 46, 0, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoCopy, 8, 0, 0, 44, 0, 0, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoCopyNoBarrier, 9, 0, 0, 54, 0, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoCopyNoBarrier, 6, 0, 0, 49, 0, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoCopyNoBarrier, 5, 0, 0, 44, 0, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoCopyNoBarrier, 6, 0, 0, 39, 0, 0, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kMmaOnly, 0, 0, 0, 23, 0, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kMmaOnly, 0, 0, 0, 23, 0, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kMmaOnly, 0, 0, 0, 23, 0, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kMmaOnly, 0, 0, 0, 23, 0, 0, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoMma, 16, 83, 0, 43, 126, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoMma, 13, 69, 0, 37, 113, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoMma, 12, 48, 0, 36, 99, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoMma, 13, 38, 0, 37, 74, 0, 0, 0},
    {"sp24", 256, 128, 64, 64, 64, 3, kFull, 27, 76, 11, 127, 126, 79, 4, 44},
    {"sp24", 128, 128, 64, 64, 64, 4, kFull, 23, 95, 16, 119, 191, 57, 8, 44},
    {"sp24", 128, 64, 64, 64, 32, 4, kFull, 23, 71, 16, 139, 144, 77, 4, 40},
    {"sp24", 64, 64, 64, 32, 32, 6, kFull, 27, 64, 11, 108, 103, 60, 2, 26},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoCopy, 23, 0, 11, 91, 0, 67, 0, 0},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoCopy, 19, 0, 16, 96, 0, 67, 0, 0},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoCopy, 19, 0, 16, 96, 0, 67, 0, 0},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoCopy, 23, 0, 11, 96, 0, 72, 2, 25},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoCopyNoBarrier, 21, 0, 11, 87, 0, 67, 0, 0},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoCopyNoBarrier, 17, 0, 16, 92, 0, 67, 0, 0},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoCopyNoBarrier, 17, 0, 16, 92, 0, 67, 0, 0},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoCopyNoBarrier, 21, 0, 11, 92, 0, 72, 2, 25},
    {"sp24", 256, 128, 64, 64, 64, 3, kMmaOnly, 2, 0, 0, 25, 0, 24, 0, 0},
    {"sp24", 128, 128, 64, 64, 64, 4, kMmaOnly, 2, 0, 0, 25, 0, 24, 0, 0},
    {"sp24", 128, 64, 64, 64, 32, 4, kMmaOnly, 2, 0, 0, 25, 0, 24, 0, 0},
    {"sp24", 64, 64, 64, 32, 32, 6, kMmaOnly, 2, 0, 0, 25, 0, 24, 0, 0},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoMma, 27, 77, 11, 127, 148, 41, 0, 0},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoMma, 23, 96, 16, 95, 155, 26, 0, 0},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoMma, 23, 72, 16, 97, 117, 28, 0, 0},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoMma, 27, 65, 11, 127, 137, 41, 0, 0},
    {"bsr", 256, 128, 64, 64, 64, 3, kFull, 16, 114, 0, 66, 183, 0, 0, 0},
    {"bsr", 128, 128, 64, 64, 64, 4, kFull, 13, 143, 0, 64, 247, 0, 0, 0},
    {"bsr", 128, 64, 64, 64, 32, 4, kFull, 12, 63, 0, 59, 142, 0, 0, 0},
    {"bsr", 64, 64, 64, 32, 32, 6, kFull, 13, 49, 0, 60, 92, 0, 0, 0},
    {"bsr", 32, 64, 32, 32, 32, 4, kFull, 12, 37, 0, 55, 89, 0, 0, 0},
};

}  // namespace

std::optional<LoopInstructions> harness_loop_instructions(const std::string& kernel,
                                                          const KernelMapping& m, unsigned parts) {
  for (const Row& r : kRows) {
    if (kernel != r.kernel || parts != r.parts || m.cta_m != r.cta_m || m.cta_n != r.cta_n ||
        m.cta_k != r.cta_k || m.warp_m != r.warp_m || m.warp_n != r.warp_n || m.stages != r.stages)
      continue;
    LoopInstructions l;
    l.ktile_prelude = r.ktile_prelude;
    l.ktile_copy_instructions = r.ktile_copy;
    l.rolled_ksubs = kernel == "sp24";  // validation/cuda/sp24_kernel.cuh: `#pragma unroll 1`
    l.ksub_prelude = r.ksub_prelude;
    l.ktile_prelude_cycles = r.ktile_prelude_cycles;
    l.ktile_copy_cycles = r.ktile_copy_cycles;
    l.ksub_prelude_cycles = r.ksub_prelude_cycles;
    l.ksub_rest_from = r.ksub_rest_from;
    l.ksub_rest_gap = r.ksub_rest_gap;
    return l;
  }
  return std::nullopt;
}

}  // namespace stcsim
