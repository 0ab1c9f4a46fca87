// The functional-mode values of `impl: rtl`: each instruction's dot product of one
// output element goes through a Verilated unit. For mma.sp the weight chunk (the
// operand the 2:4 pattern prunes, A of the instruction) is compressed with the formats
// library: kept values and ordered metadata nibbles, as the kernel's A and metadata
// registers hold them; B is the activation chunk and C the running accumulator. Dense
// mma takes both chunks as they are. The unit multiplies w x x where the golden model
// takes x x w; the products are exact, so the order of the factors cannot show
// (tests/functional checks gemm_values with the factors swapped).
#include <memory>
#include <string>
#include <vector>

#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "rtl/model/rtl_tensor_core.h"
#include "rtl/model/verilated_dot_unit.h"
#include "sim/core/input_error.h"

namespace stcsim {

namespace {

struct RtlDotState {
  bool sparse = false;
  rtl::DotFormat format = rtl::DotFormat::FP16;
  int block = 8;
  std::unique_ptr<rtl::VerilatedDotUnit> unit;  // built on first use: timing-only runs skip it
  std::vector<std::uint8_t> nibbles;
};

std::uint32_t rtl_dot(RtlDotState& st, const functional::DotChunk& ch) {
  if (!st.unit) st.unit = std::make_unique<rtl::VerilatedDotUnit>(st.sparse, st.block);
  if (!st.sparse) return st.unit->dot(st.format, ch.w, nullptr, ch.x, ch.k, ch.c);
  // A group with more than two nonzeros (bit patterns; -0 counts) cannot be an mma.sp
  // operand: say where it is in the weights.
  for (int g = 0; g < ch.k / 4; ++g) {
    int nonzeros = 0;
    for (int i = 0; i < 4; ++i) nonzeros += ch.w[4 * g + i] != 0;
    if (nonzeros > 2)
      throw InputError("tensor_core impl rtl: weight row " + std::to_string(ch.row) + ", k " +
                       std::to_string(ch.k0 + 4 * g) + ".." + std::to_string(ch.k0 + 4 * g + 3) +
                       " holds " + std::to_string(nonzeros) +
                       " nonzeros: sp24_dot takes 2:4 weights (at most 2 of every 4)");
  }
  const sparse::CompressedNm c = sparse::compress(std::vector<std::uint32_t>(ch.w, ch.w + ch.k), 1,
                                                  ch.k, sparse::NmPattern{2, 4});
  st.nibbles.resize(std::size_t(c.groups_per_row()));
  for (int g = 0; g < c.groups_per_row(); ++g)
    st.nibbles[std::size_t(g)] = std::uint8_t(sparse::group_nibble(c, 0, g));
  return st.unit->dot(st.format, c.values.data(), st.nibbles.data(), ch.x, ch.k, ch.c);
}

}  // namespace

functional::DotUnit make_rtl_dot_unit(const MmaKind& k, int block) {
  auto st = std::make_shared<RtlDotState>();
  st->sparse = !k.sparsity.dense();
  st->format = k.dtype == Dtype::BF16   ? rtl::DotFormat::BF16
               : k.dtype == Dtype::INT8 ? rtl::DotFormat::S8
                                        : rtl::DotFormat::FP16;
  st->block = block;
  functional::DotUnit u;
  u.name = std::string("Verilated ") + (st->sparse ? "sp24_dot" : "dense_dot") +
           " (tensor_core impl rtl, RTL of the " + RtlTensorCore::preset() + " preset)";
  u.fn = [st](const functional::DotChunk& ch) { return rtl_dot(*st, ch); };
  return u;
}

}  // namespace stcsim
