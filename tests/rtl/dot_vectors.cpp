#include "tests/rtl/dot_vectors.h"

#include <algorithm>
#include <cstdio>

#include "models/numerics/mma_dot.h"

namespace stcsim::rtl_tb {

namespace num = stcsim::numerics;

std::vector<std::uint32_t> logical_a(const DotVec& v, int block) {
  std::vector<std::uint32_t> a(static_cast<size_t>(v.beats * block), 0);
  for (size_t g = 0; g < v.nibbles.size(); ++g) {
    a[4 * g + (v.nibbles[g] & 3)] = v.kept[2 * g];
    a[4 * g + ((v.nibbles[g] >> 2) & 3)] = v.kept[2 * g + 1];
  }
  return a;
}

std::uint32_t golden(const DotVec& v, int block, const num::AccumulationModel& model, bool dense) {
  const auto a = dense ? v.dense_a : logical_a(v, block);
  if (v.int8) {
    std::vector<std::int32_t> ai, bi;
    for (auto x : a) ai.push_back(static_cast<std::int8_t>(x & 0xFF));
    for (auto x : v.b) bi.push_back(static_cast<std::int8_t>(x & 0xFF));
    return static_cast<std::uint32_t>(num::mma_dot_int(
        ai.data(), bi.data(), static_cast<int>(ai.size()), static_cast<std::int32_t>(v.c)));
  }
  return num::mma_dot(v.bf16 ? num::FloatFormat::BF16 : num::FloatFormat::FP16, a.data(),
                      v.b.data(), v.beats * block, v.c, model);
}

namespace {

std::uint32_t special16(bool bf16, std::mt19937_64& rng) {
  const std::uint32_t s = static_cast<std::uint32_t>(rng() & 1) << 15;
  const std::uint32_t inf = bf16 ? 0x7F80 : 0x7C00;
  switch (rng() % 8) {
    case 0:
      return s;  // +-0
    case 1:
      return s | inf;  // +-inf
    case 2:
      return inf | 0x1 | static_cast<std::uint32_t>(rng() & (bf16 ? 0x3F : 0x1FF));  // NaN
    case 3:
      return s | (inf - 1);  // +-max finite
    case 4:
      return s | 1;  // smallest subnormal
    case 5:
      return s | static_cast<std::uint32_t>(rng() & (bf16 ? 0x7F : 0x3FF));  // subnormal
    case 6:
      return s | (bf16 ? 0x0080u : 0x0400u);  // smallest normal
    default:
      return s | (bf16 ? 0x3F80u : 0x3C00u);  // 1.0
  }
}

std::uint32_t value16(bool bf16, Mode mode, int center, std::mt19937_64& rng) {
  const int emax = bf16 ? 254 : 30;
  if (rng() % 20 == 0) return (rng() & 1) ? 0x8000u : 0u;  // ~5% zeros
  switch (mode) {
    case Mode::Similar:
    case Mode::Tiny:
    case Mode::Cancel:
      return finite16(bf16, std::max(1, center - 3), std::min(emax, center + 3), rng);
    case Mode::Wide:
      return finite16(bf16, 0, emax, rng);
    case Mode::Bits:
      return static_cast<std::uint32_t>(rng() & 0xFFFF);
    case Mode::Special:
      return rng() % 4 == 0 ? special16(bf16, rng) : finite16(bf16, 0, emax, rng);
  }
  return 0;
}

const std::uint8_t kOrdered[6] = {0x4, 0x8, 0x9, 0xC, 0xD, 0xE};

std::uint32_t value8(std::mt19937_64& rng) {
  static const std::uint32_t kEdge[] = {0x00, 0x80, 0x7F, 0x81, 0xFF, 0x01};
  return rng() % 8 == 0 ? kEdge[rng() % 6] : static_cast<std::uint32_t>(rng() & 0xFF);
}

// s8 operands (edges -128, 127, -1, 0 mixed in) and an s32 C near the wrap-around edges.
DotVec random_int8_vec(int block, std::mt19937_64& rng) {
  DotVec v;
  v.int8 = true;
  v.beats = 1 + static_cast<int>(rng() % 4);
  const int kept = v.beats * block / 2, groups = v.beats * block / 4;
  for (int i = 0; i < kept; ++i) v.kept.push_back(value8(rng));
  for (int j = 0; j < v.beats * block; ++j) v.b.push_back(value8(rng));
  for (int g = 0; g < groups; ++g) v.nibbles.push_back(kOrdered[rng() % 6]);
  switch (rng() % 4) {
    case 0:
      v.c = 0x7FFFFFFFu - static_cast<std::uint32_t>(rng() % 100000);
      break;
    case 1:
      v.c = 0x80000000u + static_cast<std::uint32_t>(rng() % 100000);
      break;
    default:
      v.c = static_cast<std::uint32_t>(rng());
      break;
  }
  if ((v.kept[0] | v.kept[kept - 1]) == 0) v.kept[0] = 1;  // never all zero
  if ((v.b[0] | v.b[1]) == 0) v.b[0] = 0x80;
  return v;
}

// dense_a: the kept values where the metadata puts them, values of the same mode at the
// pruned positions; in Cancel mode those cancel too (a copy of a kept value times -B).
void fill_dense(DotVec& v, int block, Mode mode, int center, std::mt19937_64& rng) {
  v.dense_a = logical_a(v, block);
  for (size_t g = 0; g < v.nibbles.size(); ++g) {
    const int i0 = v.nibbles[g] & 3, i1 = (v.nibbles[g] >> 2) & 3;
    int src = i0;
    for (int p = 0; p < 4; ++p) {
      if (p == i0 || p == i1) continue;
      const size_t at = 4 * g + p;
      if (v.int8) {
        v.dense_a[at] = value8(rng);
      } else if (mode == Mode::Cancel && i0 != i1) {
        v.dense_a[at] = v.dense_a[4 * g + src];
        v.b[at] = v.b[4 * g + src] ^ 0x8000u;
        src = i1;
      } else {
        v.dense_a[at] = value16(v.bf16, mode, center, rng);
      }
    }
  }
}

}  // namespace

std::uint32_t finite16(bool bf16, int lo, int hi, std::mt19937_64& rng) {
  const int mbits = bf16 ? 7 : 10;
  const int e = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
  std::uint32_t m = static_cast<std::uint32_t>(rng() & ((1u << mbits) - 1));
  if (e == 0 && m == 0) m = 1;
  return (static_cast<std::uint32_t>(rng() & 1) << 15) | (static_cast<std::uint32_t>(e) << mbits) |
         m;
}

std::uint32_t value32(Mode mode, std::mt19937_64& rng) {
  const std::uint32_t s = static_cast<std::uint32_t>(rng() & 1) << 31;
  const std::uint32_t m = static_cast<std::uint32_t>(rng() & 0x7FFFFF);
  switch (rng() % 16) {
    case 0:
      return s;  // +-0
    case 1:
      return s | m;  // subnormal (or 0)
    default:
      break;
  }
  if (mode == Mode::Special && rng() % 3 == 0) {
    switch (rng() % 4) {
      case 0:
        return s | 0x7F800000u;
      case 1:
        return 0x7FC00000u | m;
      case 2:
        return s | 0x7F7FFFFFu;
      default:
        return s | 0x00800000u;
    }
  }
  if (mode == Mode::Bits) return static_cast<std::uint32_t>(rng());
  const int e = mode == Mode::Similar ? 127 - 20 + static_cast<int>(rng() % 40)
                                      : 1 + static_cast<int>(rng() % 254);
  return s | (static_cast<std::uint32_t>(e) << 23) | m;
}

DotVec random_vec(int block, std::mt19937_64& rng, std::mt19937_64* dense_rng) {
  if (rng() % 8 == 0) {
    DotVec v = random_int8_vec(block, rng);
    if (dense_rng) fill_dense(v, block, Mode::Bits, 0, *dense_rng);
    return v;
  }
  DotVec v;
  v.bf16 = rng() & 1;
  v.beats = 1 + static_cast<int>(rng() % 4);
  const unsigned pick = rng() % 100;
  const Mode mode = pick < 45   ? Mode::Similar
                    : pick < 65 ? Mode::Wide
                    : pick < 75 ? Mode::Bits
                    : pick < 85 ? Mode::Special
                    : pick < 92 ? Mode::Tiny
                                : Mode::Cancel;
  if (mode == Mode::Tiny) v.bf16 = true;  // products near fp32's subnormal range
  const int center = mode == Mode::Tiny ? 1 + static_cast<int>(rng() % 30)
                     : v.bf16           ? 100 + static_cast<int>(rng() % 56)
                                        : 5 + static_cast<int>(rng() % 21);
  const int kept = v.beats * block / 2, groups = v.beats * block / 4;
  for (int i = 0; i < kept; ++i) v.kept.push_back(value16(v.bf16, mode, center, rng));
  for (int j = 0; j < v.beats * block; ++j) v.b.push_back(value16(v.bf16, mode, center, rng));
  for (int g = 0; g < groups; ++g) v.nibbles.push_back(kOrdered[rng() % 6]);
  v.c = value32(mode, rng);
  if (mode == Mode::Tiny) v.c = (rng() % 2) ? static_cast<std::uint32_t>(rng() & 0x807FFFFF) : 0u;
  if (mode == Mode::Cancel) {  // the two products of each group cancel exactly
    for (int g = 0; g < groups; ++g) {
      const int base = (g / (block / 4)) * block + 4 * (g % (block / 4));
      const int i0 = v.nibbles[g] & 3, i1 = v.nibbles[g] >> 2;
      v.kept[2 * g + 1] = v.kept[2 * g];
      v.b[base + i1] = v.b[base + i0] ^ 0x8000u;
    }
    if (rng() % 2) v.c = (rng() % 2) ? 0x80000000u : 0u;
    if (rng() % 4 == 0) v.b[rng() % v.b.size()] ^= 1;  // a small residue: heavy cancellation
  }
  if (rng() % 100 == 0) {  // an unordered nibble somewhere
    std::uint8_t n;
    do {
      n = static_cast<std::uint8_t>(rng() & 15);
    } while ((n & 3) < (n >> 2));
    v.nibbles[rng() % v.nibbles.size()] = n;
    v.invalid_meta = true;
  }
  // never all zero: at least one nonzero A and one nonzero B
  auto nonzero = [](const std::vector<std::uint32_t>& x) {
    for (auto e : x)
      if ((e & 0x7FFF) != 0) return true;
    return false;
  };
  if (!nonzero(v.kept)) v.kept[0] = v.bf16 ? 0x3F80 : 0x3C00;
  if (!nonzero(v.b)) v.b[0] = v.bf16 ? 0x3F80 : 0x3C00;
  if (dense_rng) fill_dense(v, block, mode, center, *dense_rng);
  return v;
}

std::string hex_list(const std::vector<std::uint32_t>& x) {
  std::string s;
  char buf[16];
  for (size_t i = 0; i < x.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%04x", i ? "," : "", x[i]);
    s += buf;
  }
  return s;
}

const char* format_name(const DotVec& v) { return v.int8 ? "s8" : v.bf16 ? "bf16" : "fp16"; }

void ResultClasses::add(const DotVec& v, std::uint32_t expect) {
  ++total;
  int8 += v.int8;
  if (v.int8) return;
  const std::uint32_t e = (expect >> 23) & 0xFF, mant = expect & 0x7FFFFF;
  nan += e == 0xFF && mant != 0;
  inf += e == 0xFF && mant == 0;
  zero += e == 0 && mant == 0;
  sub += e == 0 && mant != 0;
  max += (expect & 0x7FFFFFFF) == 0x7F7FFFFF;
}

std::string ResultClasses::str() const {
  return std::to_string(int8) + " s8 (s32 results), fp32: " + std::to_string(nan) + " NaN, " +
         std::to_string(inf) + " inf, " + std::to_string(max) + " max finite, " +
         std::to_string(zero) + " zero, " + std::to_string(sub) + " subnormal, " +
         std::to_string(total - int8 - nan - inf - zero - sub) + " other finite";
}

}  // namespace stcsim::rtl_tb
