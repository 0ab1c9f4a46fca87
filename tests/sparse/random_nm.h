// Random N:M-sparse matrices for the format and functional tests: each group keeps a
// random subset of at most N positions (sometimes fewer, to exercise padding), filled
// with nonzero bit patterns from `nonzero`. The result is never all zero.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "models/sparse/nm_pattern.h"

namespace stcsim::sparse::testing {

inline std::vector<std::uint32_t> random_nm(std::mt19937& rng, int rows, int cols, NmPattern p,
                                            const std::function<std::uint32_t()>& nonzero) {
  std::vector<std::uint32_t> a(std::size_t(rows) * cols, 0);
  std::vector<int> pos(p.m);
  for (std::size_t base = 0; base < a.size(); base += p.m) {
    for (int i = 0; i < p.m; ++i) pos[i] = i;
    std::shuffle(pos.begin(), pos.end(), rng);
    // Mostly full groups; a quarter of them short (down to empty).
    const int count = rng() % 4 ? p.n : int(rng() % p.n);
    for (int j = 0; j < count; ++j) a[base + pos[j]] = nonzero();
  }
  if (!a.empty()) a[0] = nonzero();  // never all zero (group 0 keeps at most N still)
  // a[0] may have made group 0 hold N+1 nonzeros: drop the last extra one.
  int nz = 0;
  for (int i = 0; i < p.m && i < cols; ++i) nz += a[i] != 0;
  for (int i = p.m - 1; nz > p.n && i > 0; --i)
    if (a[i]) a[i] = 0, --nz;
  return a;
}

// A nonzero value of `bits` bits.
inline std::function<std::uint32_t()> nonzero_bits(std::mt19937& rng, int bits) {
  return [&rng, bits] {
    const std::uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    std::uint32_t v;
    do v = rng() & mask;
    while (v == 0);
    return v;
  };
}

}  // namespace stcsim::sparse::testing
