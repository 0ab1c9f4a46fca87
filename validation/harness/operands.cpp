#include "validation/harness/operands.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "models/numerics/float_format.h"
#include "models/sparse/prune.h"
#include "sim/core/input_error.h"

namespace stcsim::validation {

using numerics::FloatFormat;

Fp16Matrix random_fp16(int rows, int cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Fp16Matrix m(std::size_t(rows) * std::size_t(cols));
  for (auto& v : m) {
    const std::uint64_t r = rng();
    const unsigned mant = unsigned(r & 0x3FF), exp = unsigned(12 + ((r >> 10) & 3)),
                   sign = unsigned((r >> 12) & 1);
    v = std::uint16_t(sign << 15 | exp << 10 | mant);  // biased exponent 12..15: 2^-3..2^0
  }
  return m;
}

Fp16Matrix prune_24(const Fp16Matrix& w, int rows, int cols) {
  std::vector<double> v(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) v[i] = numerics::decode(FloatFormat::FP16, w[i]);
  const std::vector<double> kept = sparse::prune_magnitude(v, rows, cols, sparse::NmPattern{2, 4});
  Fp16Matrix out(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) out[i] = kept[i] != 0.0 ? w[i] : std::uint16_t(0);
  return out;
}

Fp16Matrix prune_blocks(const Fp16Matrix& w, int rows, int cols, int block_rows, int block_cols,
                        double density) {
  if (block_rows <= 0 || block_cols <= 0 || rows % block_rows || cols % block_cols)
    throw InputError("block pruning: " + std::to_string(block_rows) + "x" +
                     std::to_string(block_cols) + " blocks do not tile a " + std::to_string(rows) +
                     "x" + std::to_string(cols) + " matrix");
  if (!(density > 0.0 && density <= 1.0))
    throw InputError("block pruning: density " + std::to_string(density) + " is not in (0, 1]");
  const int bcols = cols / block_cols;
  const int keep = std::max(1, int(std::lround(density * bcols)));
  Fp16Matrix out(w.size(), 0);
  std::vector<std::pair<double, int>> norms(bcols);
  for (int br = 0; br < rows / block_rows; ++br) {
    for (int bc = 0; bc < bcols; ++bc) {
      double s = 0;
      for (int r = 0; r < block_rows; ++r)
        for (int c = 0; c < block_cols; ++c) {
          const double x = numerics::decode(
              FloatFormat::FP16, w[std::size_t(br * block_rows + r) * cols + bc * block_cols + c]);
          s += x * x;
        }
      norms[bc] = {-s, bc};  // sort: largest norm first, then lower column
    }
    std::sort(norms.begin(), norms.end());
    for (int i = 0; i < keep; ++i) {
      const int bc = norms[i].second;
      for (int r = 0; r < block_rows; ++r) {
        const std::size_t o = std::size_t(br * block_rows + r) * cols + bc * block_cols;
        std::copy_n(&w[o], block_cols, &out[o]);
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> widen(const Fp16Matrix& m) {
  return std::vector<std::uint32_t>(m.begin(), m.end());
}

Fp16Matrix narrow(const std::vector<std::uint32_t>& m) {
  Fp16Matrix out(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) out[i] = std::uint16_t(m[i]);
  return out;
}

std::vector<std::uint32_t> take_rows(const Fp16Matrix& m, int cols, const std::vector<int>& idx) {
  std::vector<std::uint32_t> out;
  out.reserve(idx.size() * std::size_t(cols));
  for (int r : idx)
    out.insert(out.end(), m.begin() + std::ptrdiff_t(r) * cols,
               m.begin() + std::ptrdiff_t(r + 1) * cols);
  return out;
}

}  // namespace stcsim::validation
