#include "models/common/mma_kind.h"

#include <cmath>

#include "models/sparse/nm_pattern.h"
#include "sim/core/input_error.h"

namespace stcsim {

NmSparsity parse_sparsity(const std::string& text) {
  if (text == "dense" || text == "none" || text.empty()) return {};
  const sparse::NmPattern p = sparse::NmPattern::parse(text);
  return NmSparsity{p.n, p.m};
}

MmaShape MmaKind::shape() const {
  MmaShape s = dense_mma_shape(dtype);
  if (warpgroup()) s = MmaShape{64, wgmma_n, s.k};  // PTX: the same K per dtype as mma.sync
  if (!sparsity.dense()) s.k = s.k * sparsity.m / sparsity.n;
  return s;
}

MmaShape MmaKind::sub_core_shape() const {
  MmaShape s = shape();
  if (warpgroup()) s.m = 16;
  return s;
}

std::int64_t MmaKind::products() const {
  const MmaShape s = shape();
  return std::int64_t(s.m) * s.n * dense_mma_shape(dtype).k;
}

int MmaKind::index_bits() const {
  if (sparsity.dense()) return 0;
  // PTX: 2-bit indices for 2:4 (f16, bf16, s8); tf32's 1:2 uses a 4-bit field per kept
  // element. Hypothetical patterns need ceil(log2 M) bits.
  if (dtype == Dtype::TF32 && sparsity.m == 2) return 4;
  return int(std::ceil(std::log2(double(sparsity.m))));
}

std::int64_t MmaKind::metadata_bits() const {
  const MmaShape s = shape();
  return std::int64_t(s.m) * (sparsity.dense() ? 0 : s.k * sparsity.n / sparsity.m) * index_bits();
}

std::int64_t MmaKind::b_bytes() const {
  const MmaShape s = shape();
  return std::int64_t(s.n) * s.k * input_bytes(dtype);
}

double MmaKind::a_bytes() const { return shape().m * shape().k * a_bytes_per_k(); }

double MmaKind::a_bytes_per_k() const {
  return sparsity.dense() ? input_bytes(dtype)
                          : double(input_bytes(dtype)) * sparsity.n / sparsity.m;
}

double MmaKind::meta_bytes_per_k() const {
  return sparsity.dense() ? 0.0 : double(sparsity.n) / sparsity.m * index_bits() / 8.0;
}

std::string MmaKind::str() const {
  const MmaShape s = shape();
  return std::string(to_string(dtype)) + (warpgroup() ? " wgmma" : "") + " m" +
         std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k) +
         (sparsity.dense() ? "" : " " + sparsity.str());
}

}  // namespace stcsim
