#include "models/functional/gemm_values.h"

#include <algorithm>
#include <cstring>

#include "models/functional/sparse_dot.h"
#include "models/numerics/mma_dot.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"

namespace stcsim::functional {

std::vector<std::uint32_t> gemm_values(const GemmValuesRequest& req,
                                       const std::vector<std::uint32_t>& a,
                                       const std::vector<std::uint32_t>& b) {
  const std::int64_t split = req.k_per_split > 0 ? req.k_per_split : req.k;
  const int ki = req.k_per_instruction;
  std::vector<std::uint32_t> d(std::size_t(req.m * req.n));
  if (req.sparse_b && (ki % req.sparse_b->m != 0 || req.dot || req.integer))
    throw InputError(
        "gemm_values: a sparse instruction needs a K per instruction that is a "
        "multiple of " +
        std::to_string(req.sparse_b->m) + ", fp inputs and no dot unit");
  // Zero-padded operand rows of whole instructions (the kernel's predicated loads
  // fill the K residue with zeros).
  std::vector<std::uint32_t> ra, rb;
  std::vector<int> kept_at;
  auto load_chunk = [&](std::vector<std::uint32_t>& row, const std::vector<std::uint32_t>& src,
                        std::int64_t r, std::int64_t k0, int len) {
    row.assign(ki, 0);
    std::copy_n(&src[std::size_t(r * req.k + k0)], len, row.begin());
  };
  // A sparse b's kept values and their group positions, per row and instruction (the same
  // for every row of a): compressed once, chunk by chunk in the order the loop below walks.
  const int kept = req.sparse_b ? req.sparse_b->kept_cols(ki) : 0;
  std::vector<std::uint32_t> b_kept;
  std::vector<std::uint8_t> b_index;
  if (req.sparse_b) {
    for (std::int64_t j = 0; j < req.n; ++j)
      for (std::int64_t s0 = 0; s0 < req.k; s0 += split)
        for (std::int64_t k0 = s0; k0 < std::min(req.k, s0 + split); k0 += ki) {
          load_chunk(rb, b, j, k0,
                     int(std::min<std::int64_t>(ki, std::min(req.k, s0 + split) - k0)));
          const sparse::CompressedNm c = sparse::compress(rb, 1, ki, *req.sparse_b);
          b_kept.insert(b_kept.end(), c.values.begin(), c.values.end());
          b_index.insert(b_index.end(), c.indices.begin(), c.indices.end());
        }
    kept_at.resize(kept);
  }
  for (std::int64_t i = 0; i < req.m; ++i) {
    std::size_t chunk = 0;  // of b_kept, across j
    for (std::int64_t j = 0; j < req.n; ++j) {
      std::uint32_t total = 0;  // +0.0f / int 0
      for (std::int64_t s0 = 0; s0 < req.k; s0 += split) {
        const std::int64_t s1 = std::min(req.k, s0 + split);
        std::uint32_t acc = 0;
        for (std::int64_t k0 = s0; k0 < s1; k0 += ki) {
          const int len = int(std::min<std::int64_t>(ki, s1 - k0));
          load_chunk(ra, a, i, k0, len);
          if (req.sparse_b) {
            // The sparse instruction: b's kept values of this chunk meet a at their positions.
            const std::size_t at = chunk++ * std::size_t(kept);
            for (int s = 0; s < kept; ++s)
              kept_at[s] = s / req.sparse_b->n * req.sparse_b->m + b_index[at + s];
            acc = sparse_dot(req.format, &b_kept[at], kept_at.data(), kept, ra.data(), ki, acc,
                             req.model);
            continue;
          }
          load_chunk(rb, b, j, k0, len);
          if (req.dot) {
            acc = req.dot.fn(DotChunk{rb.data(), ra.data(), ki, acc, j, k0});
          } else if (req.integer) {
            std::vector<std::int32_t> ia(ra.begin(), ra.end()), ib(rb.begin(), rb.end());
            acc = std::uint32_t(numerics::mma_dot_int(ia.data(), ib.data(), ki, std::int32_t(acc)));
          } else {
            acc = numerics::mma_dot(req.format, ra.data(), rb.data(), ki, acc, req.model);
          }
        }
        if (s0 == 0) {
          total = acc;
        } else if (req.integer) {
          total = std::uint32_t(std::int32_t(total) + std::int32_t(acc));
        } else {
          // One IEEE fp32 addition (round to nearest even), as the reduction kernel does.
          float x, y;
          std::memcpy(&x, &total, 4);
          std::memcpy(&y, &acc, 4);
          const float sum = x + y;
          std::memcpy(&total, &sum, 4);
        }
      }
      d[std::size_t(i * req.n + j)] = total;
    }
  }
  return d;
}

}  // namespace stcsim::functional
