// splitmix64 (Steele, Lea and Flood 2014): a portable 64-bit mix, so that synthetic maps and
// prunings seeded by it do not depend on the standard library's generators.
#pragma once
#include <cstdint>

namespace stcsim {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace stcsim
