// A per-layer floor on block pruning: however the blocks were selected (per layer or
// under one global threshold), a layer keeps at least `min_kept` of its blocks, taking
// back the highest-scoring pruned ones (equal scores: the lower index first, as the
// selection keeps it). The default floor of one block means pruning never empties a
// layer: a 16x27 conv is one 32x32 block, which @0.5 would otherwise remove whole, and a
// GEMM with no weights left does no work at all (the report's "work inf").
#pragma once
#include <cstdint>
#include <vector>

namespace stcsim::workloads {

// The least number of blocks a layer of `count` blocks keeps under a floor of
// `min_fraction` of its blocks (0..1): at least one.
std::int64_t blocks_floor(std::int64_t count, double min_fraction);

// Un-prune (flags[i] = 1 means pruned) the best pruned blocks until `min_kept` are kept;
// returns how many were kept before.
std::int64_t apply_block_floor(std::vector<std::uint8_t>& flags, const std::vector<double>& scores,
                               std::int64_t min_kept);

}  // namespace stcsim::workloads
