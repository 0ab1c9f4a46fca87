#include "models/functional/gemm_values.h"

#include <algorithm>
#include <cstring>

#include "models/numerics/mma_dot.h"

namespace stcsim::functional {

std::vector<std::uint32_t> gemm_values(const GemmValuesRequest& req,
                                       const std::vector<std::uint32_t>& a,
                                       const std::vector<std::uint32_t>& b) {
  const std::int64_t split = req.k_per_split > 0 ? req.k_per_split : req.k;
  const int ki = req.k_per_instruction;
  std::vector<std::uint32_t> d(std::size_t(req.m * req.n));
  // Zero-padded operand rows of whole instructions (the kernel's predicated loads
  // fill the K residue with zeros).
  std::vector<std::uint32_t> ra, rb;
  for (std::int64_t i = 0; i < req.m; ++i) {
    for (std::int64_t j = 0; j < req.n; ++j) {
      std::uint32_t total = 0;  // +0.0f / int 0
      for (std::int64_t s0 = 0; s0 < req.k; s0 += split) {
        const std::int64_t s1 = std::min(req.k, s0 + split);
        std::uint32_t acc = 0;
        for (std::int64_t k0 = s0; k0 < s1; k0 += ki) {
          const int len = int(std::min<std::int64_t>(ki, s1 - k0));
          ra.assign(ki, 0);
          rb.assign(ki, 0);
          std::copy_n(&a[std::size_t(i * req.k + k0)], len, ra.begin());
          std::copy_n(&b[std::size_t(j * req.k + k0)], len, rb.begin());
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
