#include "workloads/pruning/block_floor.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace stcsim::workloads {

std::int64_t blocks_floor(std::int64_t count, double min_fraction) {
  // The small slack keeps 0.5 x 4 blocks at 2, not 3, when 0.5 x 4 rounds up a hair.
  const auto want = std::int64_t(std::ceil(std::clamp(min_fraction, 0.0, 1.0) * count - 1e-9));
  return std::min(count, std::max<std::int64_t>(1, want));
}

std::int64_t apply_block_floor(std::vector<std::uint8_t>& flags, const std::vector<double>& scores,
                               std::int64_t min_kept) {
  if (flags.size() != scores.size())
    throw std::invalid_argument("apply_block_floor: flags and scores differ in size");
  const auto kept_before = std::int64_t(std::count(flags.begin(), flags.end(), 0));
  std::int64_t kept = kept_before;
  if (kept >= min_kept) return kept_before;
  std::vector<std::size_t> pruned;
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) pruned.push_back(i);
  // Best first; stable on the index order, so equal scores give back the lower index.
  std::stable_sort(pruned.begin(), pruned.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  for (std::size_t i = 0; i < pruned.size() && kept < min_kept; ++i, ++kept) flags[pruned[i]] = 0;
  return kept_before;
}

}  // namespace stcsim::workloads
