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
};

constexpr unsigned kFull = kMainloopAll;
constexpr unsigned kNoCopy = kMainloopBarrier | kMainloopFragments | kMainloopMma;
constexpr unsigned kNoCopyNoBarrier = kMainloopFragments | kMainloopMma;
constexpr unsigned kMmaOnly = kMainloopMma;
constexpr unsigned kNoMma = kMainloopCopy | kMainloopBarrier | kMainloopFragments;

// scripts/count_harness_instructions.py, 2026-11-28 (its "prelude", "copy" and "ksub_pre"
// columns).
constexpr Row kRows[] = {
    {"dense", 256, 128, 64, 64, 64, 3, kFull, 16, 83, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kFull, 13, 104, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kFull, 12, 48, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kFull, 13, 38, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoCopy, 11, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoCopy, 8, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoCopy, 7, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoCopy, 8, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoCopyNoBarrier, 9, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoCopyNoBarrier, 6, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoCopyNoBarrier, 5, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoCopyNoBarrier, 6, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kMmaOnly, 0, 0, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kMmaOnly, 0, 0, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kMmaOnly, 0, 0, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kMmaOnly, 0, 0, 0},
    {"dense", 256, 128, 64, 64, 64, 3, kNoMma, 16, 83, 0},
    {"dense", 128, 128, 64, 64, 64, 4, kNoMma, 13, 69, 0},
    {"dense", 128, 64, 64, 64, 32, 4, kNoMma, 12, 48, 0},
    {"dense", 64, 64, 64, 32, 32, 6, kNoMma, 13, 38, 0},
    {"sp24", 256, 128, 64, 64, 64, 3, kFull, 27, 76, 11},
    {"sp24", 128, 128, 64, 64, 64, 4, kFull, 23, 95, 16},
    {"sp24", 128, 64, 64, 64, 32, 4, kFull, 23, 71, 16},
    {"sp24", 64, 64, 64, 32, 32, 6, kFull, 27, 64, 11},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoCopy, 23, 0, 11},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoCopy, 19, 0, 16},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoCopy, 19, 0, 16},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoCopy, 23, 0, 11},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoCopyNoBarrier, 21, 0, 11},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoCopyNoBarrier, 17, 0, 16},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoCopyNoBarrier, 17, 0, 16},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoCopyNoBarrier, 21, 0, 11},
    {"sp24", 256, 128, 64, 64, 64, 3, kMmaOnly, 2, 0, 0},
    {"sp24", 128, 128, 64, 64, 64, 4, kMmaOnly, 2, 0, 0},
    {"sp24", 128, 64, 64, 64, 32, 4, kMmaOnly, 2, 0, 0},
    {"sp24", 64, 64, 64, 32, 32, 6, kMmaOnly, 2, 0, 0},
    {"sp24", 256, 128, 64, 64, 64, 3, kNoMma, 27, 77, 11},
    {"sp24", 128, 128, 64, 64, 64, 4, kNoMma, 23, 96, 16},
    {"sp24", 128, 64, 64, 64, 32, 4, kNoMma, 23, 72, 16},
    {"sp24", 64, 64, 64, 32, 32, 6, kNoMma, 27, 65, 11},
    {"bsr", 256, 128, 64, 64, 64, 3, kFull, 16, 114, 0},
    {"bsr", 128, 128, 64, 64, 64, 4, kFull, 13, 143, 0},
    {"bsr", 128, 64, 64, 64, 32, 4, kFull, 12, 63, 0},
    {"bsr", 64, 64, 64, 32, 32, 6, kFull, 13, 49, 0},
    {"bsr", 32, 64, 32, 32, 32, 4, kFull, 12, 37, 0},
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
    return l;
  }
  return std::nullopt;
}

}  // namespace stcsim
