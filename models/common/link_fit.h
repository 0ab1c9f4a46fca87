// The SM's link to the L2 from the one-SM cp.async sweep (copy_engines,
// cp_async_16B_l2_one_sm_inflight_*): shared by the model (models/ubench/copy_loops.cpp)
// and the GPU harness (validation/ubench/memory_bench.cu), so both read their sweeps the
// same way. Header-only: the CUDA harness includes it without the model's library.
//
// Why: a CTA's prologue and its epilogue's stores cross this link alone, and the model's
// 64 B/clk is an estimate (docs/notes.md, sessions 28 and 29). With every SM reading, the
// L2's own bandwidth caps the sweep; one SM alone is held back only by its own path.
// Each thread waits (wait_group 0) for its group before issuing the next, so a group of G
// bytes takes the L2's round trip plus G over the link: T(G) = round_trip + G / link, a
// line in G whose slope is the link's time per byte.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace stcsim {

// The fit's two figures, named and described once for both sides.
constexpr const char* kOneSmLinkFigure = "cp_async_16B_l2_one_sm_link";             // B/clk/SM
constexpr const char* kOneSmRoundTripFigure = "cp_async_16B_l2_one_sm_round_trip";  // clk
constexpr const char* kLinkFitWhat =
    "the one-SM sweep's groups of at least 16 KiB: least-squares line of a group's time "
    "against its bytes (round trip + bytes / link; models/common/link_fit.h)";

struct LinkFit {
  double bytes_per_cycle = NAN;    // 1 / the line's slope
  double round_trip_cycles = NAN;  // its intercept: a group's time less its bytes' time
};

// The points used: groups of at least this many bytes, where the bytes' time is most of a
// group's (the small groups are the round trip and issue alone).
constexpr double kLinkFitMinGroupBytes = 16384;

// A least-squares line through (G, G / rate) for the sweep's groups of G bytes at `rate`
// bytes per clock; NaN figures when fewer than two points qualify or the slope is not
// positive.
inline LinkFit fit_link(const std::vector<double>& group_bytes,
                        const std::vector<double>& bytes_per_cycle) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < group_bytes.size() && i < bytes_per_cycle.size(); ++i) {
    const double g = group_bytes[i], rate = bytes_per_cycle[i];
    if (g < kLinkFitMinGroupBytes || !(rate > 0)) continue;
    const double t = g / rate;
    n += 1;
    sx += g;
    sy += t;
    sxx += g * g;
    sxy += g * t;
  }
  LinkFit f;
  const double den = n * sxx - sx * sx;
  if (n < 2 || den <= 0) return f;
  const double slope = (n * sxy - sx * sy) / den;
  if (!(slope > 0)) return f;
  f.bytes_per_cycle = 1 / slope;
  f.round_trip_cycles = (sy - slope * sx) / n;
  return f;
}

}  // namespace stcsim
