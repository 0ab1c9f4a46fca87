// Host operands of the validation runs: fp16 matrices as bit patterns (row-major, K
// contiguous), seeded and never zero, and their pruned forms. Pruning to 2:4 goes through
// the formats library (models/sparse/prune.h); block pruning keeps the blocks of largest
// norm in each block row.
#pragma once
#include <cstdint>
#include <vector>

namespace stcsim::validation {

using Fp16Matrix = std::vector<std::uint16_t>;

// rows x cols values +-(1 + m/1024) * 2^e, e in [-3, 0], m uniform in 0..1023, random sign:
// never zero, products within [2^-6, 4), and a K-long dot product stays far inside fp16's
// range (|y| < 4K <= 65504 for K <= 16376), so fp16 outputs never overflow.
Fp16Matrix random_fp16(int rows, int cols, std::uint64_t seed);

// Magnitude pruning along K to 2:4 (sparse::prune_magnitude): kept values are unchanged,
// the others +0.
Fp16Matrix prune_24(const Fp16Matrix& w, int rows, int cols);

// Block pruning: cut w into block_rows x block_cols blocks and, in each block row, keep
// the max(1, round(density * blocks per row)) blocks of largest Frobenius norm (ties: the
// lower block column); the others become +0. Throws InputError unless the blocks tile w
// and 0 < density <= 1.
Fp16Matrix prune_blocks(const Fp16Matrix& w, int rows, int cols, int block_rows, int block_cols,
                        double density);

// fp16 patterns as the 32-bit patterns the formats and numerics libraries take, and back.
std::vector<std::uint32_t> widen(const Fp16Matrix& m);
Fp16Matrix narrow(const std::vector<std::uint32_t>& m);

// The rows `idx` of a rows x cols matrix, as 32-bit patterns.
std::vector<std::uint32_t> take_rows(const Fp16Matrix& m, int cols, const std::vector<int>& idx);

}  // namespace stcsim::validation
