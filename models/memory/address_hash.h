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

// Map a 64-bit hash onto [0, n) without a division (Lemire's multiply-shift).
inline std::uint64_t reduce_range(std::uint64_t hash, std::uint64_t n) {
  return std::uint64_t((static_cast<unsigned __int128>(hash) * n) >> 64);
}

// Spread consecutive units (interleave chunks, lines) over `n` targets: each run of
// `n` consecutive units visits every target exactly once, in an order rotated by a
// hash of the run, so a linear stream loads all targets evenly and strided streams
// do not camp on one target.
inline std::uint64_t interleave(std::uint64_t unit, std::uint64_t n) {
  const std::uint64_t run = unit / n;
  const std::uint64_t r = unit - run * n + reduce_range(mix_address(run), n);
  return r >= n ? r - n : r;
}

}  // namespace stcsim
