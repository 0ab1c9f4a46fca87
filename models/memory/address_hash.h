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

// Division by a divisor fixed at construction, exact for every 64-bit dividend: a
// multiply by the reciprocal, then at most two corrections upwards. The hashes below run
// once per line and a hardware divide costs tens of host cycles.
class Divider {
 public:
  explicit Divider(std::uint64_t d = 1) : d_(d), inv_(~std::uint64_t{0} / d) {}
  std::uint64_t quotient(std::uint64_t x) const {
    // inv_ = floor((2^64 - 1) / d), so d * inv_ > 2^64 - d - 1 and x * inv_ / 2^64 lies
    // within (x / d - 1, x / d]: the estimate is the quotient or one below it. One
    // correction, by a comparison (whether it is needed is data the host cannot predict,
    // so not a branch).
    std::uint64_t q = std::uint64_t((static_cast<unsigned __int128>(x) * inv_) >> 64);
    q += std::uint64_t(x - q * d_ >= d_);
    return q;
  }
  std::uint64_t divisor() const { return d_; }

 private:
  std::uint64_t d_, inv_;
};

// Spread consecutive units (interleave chunks, lines) over `n` targets: each run of
// `n` consecutive units visits every target exactly once, in an order rotated by a
// hash of the run, so a linear stream loads all targets evenly and strided streams
// do not camp on one target.
inline std::uint64_t interleave(std::uint64_t unit, const Divider& by) {
  const std::uint64_t n = by.divisor();
  const std::uint64_t run = by.quotient(unit);
  const std::uint64_t r = unit - run * n + reduce_range(mix_address(run), n);
  return r >= n ? r - n : r;
}

}  // namespace stcsim
