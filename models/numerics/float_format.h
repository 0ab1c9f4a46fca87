// Storage formats of tensor-core operands and accumulators, and exact conversion between
// their bit patterns and doubles. Every value of every format here is exactly a double, so
// decode() is exact and encode() rounds exactly once.
#pragma once
#include <cstdint>

namespace stcsim::numerics {

// FP32 and TF32 share the IEEE binary32 bit layout; TF32 keeps only the top 10 of its 23
// mantissa bits. E4M3/E5M2 are the OCP 8-bit formats NVIDIA's fp8 MMAs take.
enum class FloatFormat { FP32, TF32, FP16, BF16, E4M3, E5M2 };
enum class Rounding { TowardZero, NearestEven };

inline constexpr FloatFormat kAllFloatFormats[] = {FloatFormat::FP32, FloatFormat::TF32,
                                                   FloatFormat::FP16, FloatFormat::BF16,
                                                   FloatFormat::E4M3, FloatFormat::E5M2};

// E4M3: no inf, one NaN pattern per sign (0x7F/0xFF), max 448. TF32 reports storage_bits 32
// because it is stored (and passed to mma) in the fp32 layout.
struct FormatInfo {
  int exp_bits, man_bits, bias, storage_bits;
  bool has_inf;
};

FormatInfo format_info(FloatFormat f);
const char* to_string(FloatFormat f);

// Exact value of a bit pattern: NaN -> quiet NaN, inf -> inf. Only the low storage_bits bits
// are read; TF32 ignores the low 13 mantissa bits of its fp32 layout (a pattern whose only
// nonzero mantissa bits are those reads as an infinity or a zero, like the hardware's view).
double decode(FloatFormat f, std::uint32_t bits);

// Rounds an exact double to the format once, keeping subnormals.
// Overflow (a finite value whose rounded magnitude exceeds the largest finite):
//   NearestEven -> inf for formats with inf; E4M3 saturates to +-448 (the ".satfinite"
//   behaviour PTX requires for every conversion to e4m3).
//   TowardZero  -> the largest finite value of that sign, for every format.
// Infinite inputs stay infinite (E4M3, which has none, gets NaN); NaN inputs give the
// format's canonical NaN (canonical_nan). A nonzero value too small for the format rounds
// to a zero of its own sign. TF32 results have their low 13 bits clear.
std::uint32_t encode(FloatFormat f, double v, Rounding r);

// Additions to the required API, shared by the rounding code and the tests.
// Canonical NaN: the all-ones positive pattern NVIDIA GPUs produce (0x7FFFFFFF for fp32,
// 0x7FFF for fp16/bf16, 0x7F for both fp8 formats; 0x7FFFE000 for TF32 so that the low 13
// bits stay clear).
std::uint32_t canonical_nan(FloatFormat f);
std::uint32_t max_finite(FloatFormat f, bool negative);
bool is_nan(FloatFormat f, std::uint32_t bits);

}  // namespace stcsim::numerics
