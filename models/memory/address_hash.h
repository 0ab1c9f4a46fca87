// Address hashing shared by L2 set/slice selection and DRAM channel interleaving.
// GPUs hash physical addresses so that strided streams do not camp on one slice or
// channel; a 64-bit mixer (splitmix64's finaliser) stands in for the undisclosed hash.
#pragma once
#include <cstdint>

namespace stcsim {

inline std::uint64_t mix_address(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace stcsim
