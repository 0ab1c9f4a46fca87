// One GEMM as the simulator runs it: D[M,N] = A[M,K] * B[N,K]^T (+ C).
// For a linear layer y = x W^T: A = x (M = tokens), B = W (N = out features, K = in).
// Both operands are K-contiguous ("TN"), the layout cuBLAS uses for y = x W^T.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/dtype.h"

namespace stcsim {

struct GemmOp {
  std::string name;
  std::int64_t m = 0, n = 0, k = 0;
  Dtype dtype = Dtype::FP16;

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  // Compulsory bytes: read A and B once, write D once.
  double min_bytes() const {
    return double(input_bytes(dtype)) * double(m * k + n * k) + double(output_bytes(dtype)) * double(m * n);
  }
};

}  // namespace stcsim
