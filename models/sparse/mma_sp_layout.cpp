#include "models/sparse/mma_sp_layout.h"

#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

const MmaSpGeometry& geometry(MmaSpForm form) {
  static const MmaSpGeometry g[] = {
      {16, 8, 16, 16, {2, 4}, 2, 4, "m16n8k16 f16/bf16"},
      {16, 8, 32, 16, {2, 4}, 4, 2, "m16n8k32 f16/bf16"},
      {16, 8, 8, 32, {1, 2}, 2, 4, "m16n8k8 tf32"},
      {16, 8, 16, 32, {1, 2}, 4, 2, "m16n8k16 tf32"},
      {16, 8, 32, 8, {2, 4}, 2, 2, "m16n8k32 s8/u8"},
      {16, 8, 64, 8, {2, 4}, 4, 1, "m16n8k64 s8/u8"},
  };
  return g[int(form)];
}

const std::vector<MmaSpForm>& all_mma_sp_forms() {
  static const std::vector<MmaSpForm> all = {MmaSpForm::F16_M16N8K16, MmaSpForm::F16_M16N8K32,
                                             MmaSpForm::TF32_M16N8K8, MmaSpForm::TF32_M16N8K16,
                                             MmaSpForm::S8_M16N8K32,  MmaSpForm::S8_M16N8K64};
  return all;
}

static void check_selector(const MmaSpGeometry& g, int selector) {
  if (selector < 0 || selector >= g.selectors)
    throw InputError(std::string("mma.sp ") + g.name + ": sparsity selector " +
                     std::to_string(selector) + " out of range 0.." +
                     std::to_string(g.selectors - 1));
}

RegSlot a_slot(MmaSpForm form, int row, int kept_col) {
  const MmaSpGeometry& g = geometry(form);
  const int e = 32 / g.element_bits;
  if (row < 0 || row >= 16 || kept_col < 0 || kept_col >= g.pattern.kept_cols(g.k))
    throw std::out_of_range(std::string("mma.sp ") + g.name + ": no A element (" +
                            std::to_string(row) + ", " + std::to_string(kept_col) + ")");
  return {4 * (row % 8) + (kept_col % (4 * e)) / e, row / 8 + 2 * (kept_col / (4 * e)),
          g.element_bits * (kept_col % e)};
}

RegSlot metadata_slot(MmaSpForm form, int row, int group, int selector) {
  const MmaSpGeometry& g = geometry(form);
  check_selector(g, selector);
  const int groups = g.k / g.pattern.m;
  if (row < 0 || row >= 16 || group < 0 || group >= groups)
    throw std::out_of_range(std::string("mma.sp ") + g.name + ": no metadata group (" +
                            std::to_string(row) + ", " + std::to_string(group) + ")");
  const int quad = 4 * (row % 8);
  if (g.element_bits == 8)  // a lane holds one row's 8 groups (32 K columns)
    return {quad + 2 * selector + 2 * (group / 8) + row / 8, 0, 4 * (group % 8)};
  // f16/bf16 and tf32: a lane holds 4 groups of rows g and g+8 (16 bits each).
  const int lane_in_quad = groups == 4 ? selector : 2 * selector + group / 4;
  return {quad + lane_in_quad, 0, 16 * (row / 8) + 4 * (group % 4)};
}

static std::string hex(std::uint32_t v) {
  const char* d = "0123456789ABCDEF";
  std::string s;
  do {
    s.insert(s.begin(), d[v & 0xF]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

static std::uint32_t element_mask(int bits) { return bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u; }

static void check_tile(const MmaSpGeometry& g, const CompressedNm& t) {
  if (t.rows != 16 || t.cols != g.k || t.pattern != g.pattern)
    throw InputError(std::string("mma.sp ") + g.name + " takes a 16x" + std::to_string(g.k) + " " +
                     g.pattern.str() + " tile, got " + std::to_string(t.rows) + "x" +
                     std::to_string(t.cols) + " " + t.pattern.str());
  validate(t);
}

MmaSpRegisters to_mma_sp_registers(MmaSpForm form, const CompressedNm& tile, int selector) {
  const MmaSpGeometry& g = geometry(form);
  check_selector(g, selector);
  check_tile(g, tile);
  MmaSpRegisters regs{g.a_regs, std::vector<std::uint32_t>(32 * g.a_regs, 0),
                      std::vector<std::uint32_t>(32, 0)};
  const std::uint32_t mask = element_mask(g.element_bits);
  const int kc = tile.kept_cols();
  for (int r = 0; r < 16; ++r) {
    for (int j = 0; j < kc; ++j) {
      const std::uint32_t v = tile.values[std::size_t(r) * kc + j];
      if (v & ~mask)
        throw InputError(std::string("mma.sp ") + g.name + ": A value " + hex(v) + " at row " +
                         std::to_string(r) + ", kept column " + std::to_string(j) +
                         " is wider than " + std::to_string(g.element_bits) + " bits");
      const RegSlot s = a_slot(form, r, j);
      regs.a[std::size_t(s.lane) * g.a_regs + s.reg] |= v << s.bit;
    }
    for (int q = 0; q < tile.groups_per_row(); ++q) {
      const RegSlot s = metadata_slot(form, r, q, selector);
      regs.e[s.lane] |= group_nibble(tile, r, q) << s.bit;
    }
  }
  return regs;
}

CompressedNm from_mma_sp_registers(MmaSpForm form, const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& e, int selector,
                                   MetadataOrder order) {
  const MmaSpGeometry& g = geometry(form);
  check_selector(g, selector);
  if (a.size() != std::size_t(32) * g.a_regs || e.size() != 32)
    throw std::invalid_argument(std::string("mma.sp ") + g.name + " takes " +
                                std::to_string(g.a_regs) +
                                " A registers and 1 metadata "
                                "register per lane (32 lanes)");
  CompressedNm t{16, g.k, g.pattern, {}, {}};
  const int kc = t.kept_cols();
  t.values.assign(std::size_t(16) * kc, 0);
  t.indices.assign(t.values.size(), 0);
  const std::uint32_t mask = element_mask(g.element_bits);
  for (int r = 0; r < 16; ++r) {
    for (int j = 0; j < kc; ++j) {
      const RegSlot s = a_slot(form, r, j);
      t.values[std::size_t(r) * kc + j] =
          (a[std::size_t(s.lane) * g.a_regs + s.reg] >> s.bit) & mask;
    }
    for (int q = 0; q < t.groups_per_row(); ++q) {
      const RegSlot s = metadata_slot(form, r, q, selector);
      set_group_nibble(t, r, q, (e[s.lane] >> s.bit) & 0xF, order,
                       std::string("mma.sp ") + g.name + " lane " + std::to_string(s.lane) +
                           " (selector " + std::to_string(selector) + ") metadata bits [" +
                           std::to_string(s.bit + 3) + ":" + std::to_string(s.bit) + "], row " +
                           std::to_string(r) + " group " + std::to_string(q));
    }
  }
  return t;
}

}  // namespace stcsim::sparse
