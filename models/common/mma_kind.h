// What one warp-level tensor-core instruction is: its dtype and, for mma.sp, the N:M
// pattern of its A operand. Everything the timing model needs to know about an
// instruction's shape, work and operand bytes derives from here.
//
// Sparsity is on A, as PTX requires: of every M consecutive elements along K, N are
// kept; a sparse instruction covers M/N times the dense instruction's K with the same
// number of real products (m16n8k16 f16 dense -> m16n8k32 f16 2:4).
#pragma once
#include <cstdint>
#include <string>

#include "models/common/dtype.h"

namespace stcsim {

// Dense, or one of the N:M patterns of the formats library (sparse::NmPattern, the one
// home of sparse formats; parse_sparsity validates through it).
struct NmSparsity {
  int n = 0, m = 0;  // n = 0: dense
  bool dense() const { return n == 0; }
  std::string str() const {
    return dense() ? "dense" : std::to_string(n) + ":" + std::to_string(m);
  }
  bool operator==(const NmSparsity& o) const { return n == o.n && m == o.m; }
};

// "dense", or an N:M pattern sparse::NmPattern accepts (2:4, 1:4, 2:8, 4:8, 1:2);
// throws InputError otherwise.
NmSparsity parse_sparsity(const std::string& text);

// A warp-level mma.sync / mma.sp (wgmma_n = 0), or a warpgroup-level
// wgmma.mma_async(.sp) m64nNkK with N = wgmma_n (8..256, a multiple of 8): the four warps
// of the warpgroup each run a m16 x N slice on their own sub-core's tensor core, B (N x K)
// is read once from shared memory and reaches all four.
struct MmaKind {
  Dtype dtype = Dtype::FP16;
  NmSparsity sparsity;
  int wgmma_n = 0;

  bool warpgroup() const { return wgmma_n > 0; }
  bool operator==(const MmaKind& o) const {
    return dtype == o.dtype && sparsity == o.sparsity && wgmma_n == o.wgmma_n;
  }
  bool operator!=(const MmaKind& o) const { return !(*this == o); }
  MmaShape shape() const;  // m16 n8 (wgmma: m64 nN) and K covered (dense K x M/N for sparse)
  MmaShape sub_core_shape() const;     // what one sub-core's tensor core runs: m16 of shape()
  std::int64_t products() const;       // real multiplies per instruction
  int index_bits() const;              // metadata bits per kept A element (0 for dense)
  std::int64_t metadata_bits() const;  // per instruction
  std::int64_t b_bytes() const;        // B operand bytes per instruction
  double a_bytes() const;  // A operand bytes per instruction (values, compressed when sparse)
  // Bytes of A (values) and of metadata per dense-K element of one A row.
  double a_bytes_per_k() const;
  double meta_bytes_per_k() const;
  std::string str() const;  // "fp16 m16n8k32 2:4", "bf16 wgmma m64n256k16"
};

}  // namespace stcsim
