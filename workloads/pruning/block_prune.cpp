#include "workloads/pruning/block_prune.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "models/sparse/prune.h"
#include "sim/core/input_error.h"

namespace stcsim::workloads {

std::int64_t BlockGrid::area(std::int64_t block) const {
  const std::int64_t bi = block / grid_cols(), bj = block % grid_cols();
  const std::int64_t h = std::min<std::int64_t>(r, rows - bi * r);
  const std::int64_t w = std::min<std::int64_t>(c, cols - bj * c);
  return h * w;
}

bool is_zero_bits(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits == 0;
}

static void check_size(const std::vector<float>& w, const BlockGrid& g, const char* what) {
  if (g.rows < 0 || g.cols < 0 || g.r < 1 || g.c < 1 ||
      w.size() != std::size_t(g.rows) * std::size_t(g.cols))
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(w.size()) +
                                " values for a " + std::to_string(g.rows) + "x" +
                                std::to_string(g.cols) + " matrix");
}

std::vector<double> block_scores(const std::vector<float>& w, const BlockGrid& g) {
  check_size(w, g, "block_scores");
  const std::int64_t gc = g.grid_cols();
  std::vector<double> sum(std::size_t(g.count()), 0.0);
  std::vector<std::uint8_t> nan(sum.size(), 0);
  for (std::int64_t i = 0; i < g.rows; ++i) {
    const float* row = w.data() + i * g.cols;
    const std::int64_t base = (i / g.r) * gc;
    for (std::int64_t j = 0; j < g.cols; ++j) {
      const double v = row[j];
      const std::size_t b = std::size_t(base + j / g.c);
      if (std::isnan(v))
        nan[b] = 1;
      else
        sum[b] += v * v;
    }
  }
  for (std::size_t b = 0; b < sum.size(); ++b)
    sum[b] =
        nan[b] ? std::numeric_limits<double>::infinity() : sum[b] / double(g.area(std::int64_t(b)));
  return sum;
}

std::vector<std::vector<std::uint8_t>> select_blocks_to_prune(
    const std::vector<BlockGrid>& grids, const std::vector<std::vector<double>>& scores,
    double target) {
  if (grids.size() != scores.size())
    throw std::invalid_argument("select_blocks_to_prune: grids and scores differ in count");
  if (!(target >= 0.0 && target < 1.0))
    throw InputError("block pruning: target sparsity " + std::to_string(target) +
                     " must be at least 0 and below 1");
  struct Candidate {
    double score;
    std::uint32_t matrix;
    std::int64_t block;
  };
  std::vector<Candidate> cand;
  double total = 0;
  std::size_t n = 0;
  for (std::size_t m = 0; m < grids.size(); ++m) {
    if (scores[m].size() != std::size_t(grids[m].count()))
      throw std::invalid_argument("select_blocks_to_prune: scores do not match the grid");
    total += double(grids[m].rows) * double(grids[m].cols);
    n += scores[m].size();
  }
  cand.reserve(n);
  for (std::size_t m = 0; m < grids.size(); ++m)
    for (std::size_t b = 0; b < scores[m].size(); ++b)
      cand.push_back({scores[m][b], std::uint32_t(m), std::int64_t(b)});
  std::sort(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return a.score < b.score;
    if (a.matrix != b.matrix) return a.matrix > b.matrix;
    return a.block > b.block;
  });
  std::vector<std::vector<std::uint8_t>> out(grids.size());
  for (std::size_t m = 0; m < grids.size(); ++m) out[m].assign(scores[m].size(), 0);
  const double goal = target * total;
  double pruned = 0;
  for (const auto& c : cand) {
    if (std::isinf(c.score)) break;  // NaN blocks are kept
    const double area = double(grids[c.matrix].area(c.block));
    if (pruned + area / 2 > goal) break;
    out[c.matrix][std::size_t(c.block)] = 1;
    pruned += area;
  }
  return out;
}

void zero_blocks(std::vector<float>& w, const BlockGrid& g,
                 const std::vector<std::uint8_t>& prune) {
  check_size(w, g, "zero_blocks");
  if (prune.size() != std::size_t(g.count()))
    throw std::invalid_argument("zero_blocks: flags do not match the grid");
  const std::int64_t gc = g.grid_cols();
  for (std::int64_t i = 0; i < g.rows; ++i) {
    float* row = w.data() + i * g.cols;
    const std::uint8_t* flags = prune.data() + (i / g.r) * gc;
    for (std::int64_t j = 0; j < g.cols; ++j)
      if (flags[j / g.c]) row[j] = 0.0f;
  }
}

std::vector<std::int64_t> panel_histogram(const std::vector<float>& w, const BlockGrid& g) {
  check_size(w, g, "panel_histogram");
  const std::int64_t gc = g.grid_cols();
  std::vector<std::int64_t> hist(std::size_t(gc) + 1, 0);
  std::vector<std::uint8_t> nz(static_cast<std::size_t>(gc));
  for (std::int64_t p = 0; p < g.grid_rows(); ++p) {
    std::fill(nz.begin(), nz.end(), 0);
    for (std::int64_t i = p * g.r; i < std::min<std::int64_t>(g.rows, (p + 1) * g.r); ++i) {
      const float* row = w.data() + i * g.cols;
      for (std::int64_t j = 0; j < g.cols; ++j)
        if (!is_zero_bits(row[j])) nz[std::size_t(j / g.c)] = 1;
    }
    std::int64_t count = 0;
    for (auto f : nz) count += f;
    ++hist[std::size_t(count)];
  }
  return hist;
}

std::vector<float> prune_nm_matrix(const std::vector<float>& w, std::int64_t rows,
                                   std::int64_t cols, sparse::NmPattern p) {
  if (rows > std::numeric_limits<int>::max() || cols > std::numeric_limits<int>::max())
    throw InputError("N:M pruning: a " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " matrix is too large");
  return sparse::prune_magnitude(w, int(rows), int(cols), p);
}

}  // namespace stcsim::workloads
