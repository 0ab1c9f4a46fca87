#include "validation/harness/sparse_pack.h"

#include <string>

#include "models/sparse/bsr.h"
#include "models/sparse/mma_sp_layout.h"
#include "sim/core/input_error.h"
#include "validation/cuda/fragment_addressing.h"

namespace stcsim::validation {

namespace {

using sparse::CompressedNm;
using sparse::MmaSpForm;
constexpr MmaSpForm kForm = MmaSpForm::F16_M16N8K32;

void check_shape(int rows, int cols, int cta_m, int cta_k) {
  if (cta_m <= 0 || cta_m % 16 || cta_k <= 0 || cta_k % 32 || rows % cta_m || cols % cta_k)
    throw InputError("2:4 packing: a " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " matrix does not split into " + std::to_string(cta_m) + "x" +
                     std::to_string(cta_k) + " tiles of 16x32 mma.sp tiles");
}

// Word index of the metadata register lane `lane` supplies for 16-row tile `mt` (of all
// rows) and 32-wide k-sub `ks` (of all K): the kernel's own addressing
// (validation/cuda/fragment_addressing.h), so packing and reading cannot drift apart.
std::size_t word_index(const Sp24Operand& op, int mt, int ks, int lane) {
  const int bm = mt * 16 / op.cta_m, kt = ks * 32 / op.cta_k, ksubs = op.cta_k / 32;
  return validation::meta_block_offset(bm, kt, op.cols / op.cta_k, op.cta_m, op.cta_k) / 4 +
         std::size_t(meta_word(lane, mt % (op.cta_m / 16), ks % ksubs, ksubs));
}

}  // namespace

Sp24Operand pack_sp24(const Fp16Matrix& w, int rows, int cols, int cta_m, int cta_k) {
  check_shape(rows, cols, cta_m, cta_k);
  const CompressedNm c = sparse::compress(widen(w), rows, cols, sparse::NmPattern{2, 4});
  Sp24Operand op{rows, cols, cta_m, cta_k, narrow(c.values), {}};
  op.meta.assign(std::size_t(rows) * cols / 32, 0);
  CompressedNm tile;
  tile.rows = 16;
  tile.cols = 32;
  tile.pattern = c.pattern;
  for (int mt = 0; mt < rows / 16; ++mt)
    for (int ks = 0; ks < cols / 32; ++ks) {
      tile.values.clear();
      tile.indices.clear();
      for (int r = 0; r < 16; ++r) {
        const std::size_t o = std::size_t(mt * 16 + r) * (cols / 2) + ks * 16;
        tile.values.insert(tile.values.end(), c.values.begin() + o, c.values.begin() + o + 16);
        tile.indices.insert(tile.indices.end(), c.indices.begin() + o, c.indices.begin() + o + 16);
      }
      const sparse::MmaSpRegisters regs = sparse::to_mma_sp_registers(kForm, tile, 0);
      for (int g = 0; g < 8; ++g)  // lanes 4g, 4g+1 supply the register under selector 0
        for (int j = 0; j < 2; ++j) op.meta[word_index(op, mt, ks, 4 * g + j)] = regs.e[4 * g + j];
    }
  return op;
}

Fp16Matrix unpack_sp24(const Sp24Operand& op) {
  check_shape(op.rows, op.cols, op.cta_m, op.cta_k);
  const int a_regs = sparse::geometry(kForm).a_regs;
  CompressedNm c;
  c.rows = op.rows;
  c.cols = op.cols;
  c.pattern = sparse::NmPattern{2, 4};
  c.values = widen(op.values);
  c.indices.assign(c.values.size(), 0);
  std::vector<std::uint32_t> a(32 * std::size_t(a_regs)), e(32);
  for (int mt = 0; mt < op.rows / 16; ++mt)
    for (int ks = 0; ks < op.cols / 32; ++ks) {
      std::fill(a.begin(), a.end(), 0);
      for (int r = 0; r < 16; ++r)
        for (int kc = 0; kc < 16; ++kc) {
          const sparse::RegSlot s = sparse::a_slot(kForm, r, kc);
          a[std::size_t(s.lane) * a_regs + s.reg] |=
              std::uint32_t(op.values[std::size_t(mt * 16 + r) * (op.cols / 2) + ks * 16 + kc])
              << s.bit;
        }
      std::fill(e.begin(), e.end(), 0);
      for (int g = 0; g < 8; ++g)
        for (int j = 0; j < 2; ++j) e[4 * g + j] = op.meta[word_index(op, mt, ks, 4 * g + j)];
      const CompressedNm t =
          sparse::from_mma_sp_registers(kForm, a, e, 0, sparse::MetadataOrder::Ordered);
      for (int r = 0; r < 16; ++r)
        for (int kc = 0; kc < 16; ++kc)
          c.indices[std::size_t(mt * 16 + r) * (op.cols / 2) + ks * 16 + kc] =
              t.indices[std::size_t(r) * 16 + kc];
    }
  return narrow(sparse::uncompress(c));
}

BsrOperand pack_bsr(const Fp16Matrix& w, int rows, int cols, int cta_m, int cta_k) {
  const sparse::Bsr b = sparse::to_bsr(widen(w), rows, cols, cta_m, cta_k);
  BsrOperand op;
  op.row_ptr = b.row_ptr;
  op.col_idx = b.col_idx;
  op.values = narrow(b.values);
  op.kept_blocks = b.nnz_blocks();
  op.total_blocks = (rows / cta_m) * (cols / cta_k);
  return op;
}

}  // namespace stcsim::validation
