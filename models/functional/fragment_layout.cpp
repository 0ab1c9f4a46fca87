#include "models/functional/fragment_layout.h"

#include <stdexcept>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim::functional {

static void check_range(const char* what, int r, int rows, int c, int cols) {
  if (r < 0 || r >= rows || c < 0 || c >= cols)
    throw std::out_of_range(std::string(what) + ": no element (" + std::to_string(r) + ", " +
                            std::to_string(c) + ") in " + std::to_string(rows) + "x" +
                            std::to_string(cols));
}

RegSlot a_slot(Shape s, MmaType t, int row, int col) {
  check_range("mma A", row, 16, col, k_of(s));
  const int bits = element_bits(t), e = 32 / bits;
  return {4 * (row % 8) + (col % (4 * e)) / e, row / 8 + 2 * (col / (4 * e)), bits * (col % e)};
}

RegSlot b_slot(Shape s, MmaType t, int k, int col) {
  check_range("mma B", k, k_of(s), col, 8);
  const int bits = element_bits(t), e = 32 / bits;
  return {4 * col + (k % (4 * e)) / e, k / (4 * e), bits * (k % e)};
}

RegSlot cd_slot(int row, int col) {
  check_range("mma C/D", row, 16, col, 8);
  return {4 * (row % 8) + col / 2, 2 * (row / 8) + col % 2, 0};
}

namespace {

// Moves a rows x cols matrix of `bits`-bit elements to or from a fragment via `slot`.
template <typename Slot>
WarpFragment to_fragment(const char* what, const std::vector<std::uint32_t>& m, int rows, int cols,
                         int bits, int per_lane, Slot slot) {
  if (m.size() != std::size_t(rows) * cols)
    throw InputError(std::string(what) + ": expected " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " elements, got " + std::to_string(m.size()));
  const std::uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
  WarpFragment f(per_lane);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::uint32_t v = m[std::size_t(r) * cols + c];
      if (v & ~mask)
        throw InputError(std::string(what) + ": element (" + std::to_string(r) + ", " +
                         std::to_string(c) + ") has bits above its " + std::to_string(bits));
      const RegSlot sl = slot(r, c);
      f.at(sl.lane, sl.reg) |= v << sl.bit;
    }
  return f;
}

template <typename Slot>
std::vector<std::uint32_t> from_fragment(const char* what, const WarpFragment& f, int rows,
                                         int cols, int bits, int per_lane, Slot slot) {
  if (f.per_lane != per_lane || f.regs.size() != std::size_t(32) * per_lane)
    throw InputError(std::string(what) + ": expected " + std::to_string(per_lane) +
                     " registers per lane, got " + std::to_string(f.per_lane));
  const std::uint32_t mask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
  std::vector<std::uint32_t> m(std::size_t(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const RegSlot sl = slot(r, c);
      m[std::size_t(r) * cols + c] = (f.at(sl.lane, sl.reg) >> sl.bit) & mask;
    }
  return m;
}

}  // namespace

WarpFragment a_to_fragment(Shape s, MmaType t, const std::vector<std::uint32_t>& a) {
  return to_fragment("mma A", a, 16, k_of(s), element_bits(t), a_regs(s, t, false),
                     [&](int r, int c) { return a_slot(s, t, r, c); });
}

std::vector<std::uint32_t> a_from_fragment(Shape s, MmaType t, const WarpFragment& f) {
  return from_fragment("mma A", f, 16, k_of(s), element_bits(t), a_regs(s, t, false),
                       [&](int r, int c) { return a_slot(s, t, r, c); });
}

WarpFragment b_to_fragment(Shape s, MmaType t, const std::vector<std::uint32_t>& b) {
  return to_fragment("mma B", b, k_of(s), 8, element_bits(t), b_regs(s, t),
                     [&](int r, int c) { return b_slot(s, t, r, c); });
}

std::vector<std::uint32_t> b_from_fragment(Shape s, MmaType t, const WarpFragment& f) {
  return from_fragment("mma B", f, k_of(s), 8, element_bits(t), b_regs(s, t),
                       [&](int r, int c) { return b_slot(s, t, r, c); });
}

WarpFragment cd_to_fragment(const std::vector<std::uint32_t>& c) {
  return to_fragment("mma C/D", c, 16, 8, 32, kCdRegs,
                     [](int r, int col) { return cd_slot(r, col); });
}

std::vector<std::uint32_t> cd_from_fragment(const WarpFragment& f) {
  return from_fragment("mma C/D", f, 16, 8, 32, kCdRegs,
                       [](int r, int col) { return cd_slot(r, col); });
}

}  // namespace stcsim::functional
