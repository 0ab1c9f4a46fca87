// Admission of a run before any of it is planned: the simulator materialises every CTA
// of an op when it launches, functional mode holds each op's operands, and synthetic
// block maps hold one entry per kept block. From the ops' shapes and the mapping's tile
// (the largest candidate tile when the mapping chooses, which gives the fewest CTAs and
// so never refuses a run that fits), estimate the memory and refuse beyond --max-memory
// with the estimate, instead of growing until the allocator fails 30 seconds in.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "models/common/gemm_op.h"
#include "sim/config/config.h"
#include "sim/core/memory_limit.h"

namespace stcsim {

// Bytes of peak memory each CTA of an op adds. Measured (docs/notes.md, 2026-11-23, issue
// 20): the peak RSS of `stcsim run --arch a100 --gemm Mx4096x32` with 128x128 CTA tiles
// grows from 19.5 MiB at 512 CTAs to 29.7 MiB at 262,144 CTAs, 41 bytes per CTA: the
// launch's 40-byte CtaTask per CTA (models/sm/cta_program.h); a CTA's program is built
// only when it starts. Rounded up to 48 so that the limit errs toward refusing.
inline constexpr std::uint64_t kBytesPerCta = 48;

// Bytes each op holds until the run ends (its result and its stats for stats.json).
// Measured (docs/notes.md, 2026-11-27): the peak RSS of `stcsim run --trace` with 2,000 and
// 20,000 small ops (Nx64x64) grows from 53.9 to 419.9 MB, 20.3 KB an op, memoized or not.
// Rounded up to 24 KiB: a trace of millions of tiny ops is refused, not swapped.
inline constexpr std::uint64_t kBytesPerOp = 24 * 1024;

struct RunEstimate {
  double bytes = 0;     // peak memory, estimated
  std::string biggest;  // what dominates (the largest op, or the ops' results), and how
};

namespace admission_detail {

// The largest CTA tile any mapping candidate uses (models/mapping: 256x128); with a
// configured cta_m/cta_n, those.
struct Tile {
  double m = 256, n = 128;
};

inline Tile tile_of(const Config& cfg) {
  Tile t;
  const auto it = cfg.sections.find("mapping");
  if (it == cfg.sections.end()) return t;
  const ParamSet& p = it->second.params;
  if (p.has("cta_m") && p.get_int("cta_m") > 0) t.m = double(p.get_int("cta_m"));
  if (p.has("cta_n") && p.get_int("cta_n") > 0) t.n = double(p.get_int("cta_n"));
  return t;
}

inline double ctas_of(const GemmOp& op, const Tile& t) {
  return std::ceil(double(op.m) / t.m) * std::ceil(double(op.n) / t.n) * double(op.batch);
}

}  // namespace admission_detail

// `functional`: operand and output matrices are held per op (fp32, plus fp64 accumulators).
inline RunEstimate estimate_run(const Config& cfg, const std::vector<GemmOp>& ops,
                                bool functional) {
  using namespace admission_detail;
  const Tile tile = tile_of(cfg);
  RunEstimate e;
  // Maps and every op's result held for the whole run; the largest op's own need.
  const double results = double(ops.size()) * double(kBytesPerOp);
  double fixed = results, worst = 0;
  for (const auto& op : ops) {
    const double ctas = ctas_of(op, tile);
    double own = ctas * double(kBytesPerCta);
    std::ostringstream how;
    how << "op '" << op.name << "' (" << op.m << "x" << op.n << "x" << op.k;
    if (op.batch > 1) how << " batch " << op.batch;
    how << "): " << ctas << " CTAs of " << tile.m << "x" << tile.n << " at ~" << kBytesPerCta
        << " bytes each";
    if (functional) {
      // x [m, k], w [batch n, k], y [m, batch n] in fp32 and a double accumulator row set.
      const double mk = double(op.m) * double(op.k), nk = double(op.batch) * op.n * op.k;
      const double mn = double(op.m) * double(op.batch) * double(op.n);
      own += 4 * (mk + nk + mn) + 8 * mn;
      how << ", plus its operands and outputs for --functional";
    }
    for (const auto* map : {op.block_map.get(), op.value_mask.get()})
      if (map) fixed += 4.0 * double(map->block_rows + 1) + 4.0 * double(map->nnz());
    if (own > worst) {
      worst = own;
      e.biggest = how.str();
    }
  }
  e.bytes = fixed + worst;
  e.biggest = "largest: " + e.biggest;
  if (results > worst)
    e.biggest = std::to_string(ops.size()) + " ops at ~" + std::to_string(kBytesPerOp / 1024) +
                " KiB each for their results and stats; " + e.biggest;
  return e;
}

// Throws InputError (exit 2) naming the largest op and the estimate beyond the limit.
inline void admit_run(const Config& cfg, const std::vector<GemmOp>& ops, bool functional) {
  const RunEstimate e = estimate_run(cfg, ops, functional);
  if (e.bytes <= double(max_memory_bytes())) return;
  // Beyond 2^64 the figure is printed as a double; format_bytes takes what fits.
  const std::uint64_t shown = e.bytes < 1.8e19 ? std::uint64_t(e.bytes) : std::uint64_t(1.8e19);
  admit_memory(shown, "the run (" + e.biggest + ")");
}

}  // namespace stcsim
