// Bit packing into Verilated ports of any width: up to 64 bits a port is an integer,
// wider ones a VlWide<N> of 32-bit words.
#pragma once
#include <cstddef>
#include <cstdint>

#include "verilated.h"

namespace stcsim::rtl {

template <class T>
void put(T& port, int lsb, int width, std::uint64_t v) {
  const std::uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
  port = static_cast<T>((static_cast<std::uint64_t>(port) & ~mask) | ((v << lsb) & mask));
}

template <std::size_t N>
void put(VlWide<N>& port, int lsb, int width, std::uint64_t v) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const std::uint32_t m = 1u << (bit % 32);
    if ((v >> i) & 1) {
      port[bit / 32] |= m;
    } else {
      port[bit / 32] &= ~m;
    }
  }
}

}  // namespace stcsim::rtl
