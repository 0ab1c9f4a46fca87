// Operand data types of the tensor-core datapath and the warp-level mma shape the
// PTX ISA gives each of them (mma.sync.aligned.m16n8kK).
#pragma once
#include <cstdint>
#include <string>

namespace stcsim {

// fp8_e4m3 / fp8_e5m2: the OCP 8-bit formats (models/numerics/float_format.h) that Hopper's
// wgmma takes (sm_90a) and Ada's mma.sync takes (sm_89+; on sm_90 the compiler emulates it
// on the fp16 tensor core, tensor_core.fp8_*_ii_cycles).
enum class Dtype { FP16, BF16, TF32, INT8, FP8_E4M3, FP8_E5M2 };

inline constexpr Dtype kAllDtypes[] = {Dtype::FP16, Dtype::BF16,     Dtype::TF32,
                                       Dtype::INT8, Dtype::FP8_E4M3, Dtype::FP8_E5M2};
inline constexpr int kNumDtypes = int(sizeof(kAllDtypes) / sizeof(kAllDtypes[0]));

const char* to_string(Dtype d);
Dtype parse_dtype(const std::string& s);  // throws InputError listing valid names
// Every dtype name, '|'-separated ("fp16|bf16|...|fp8_e5m2"), for help texts and errors.
std::string dtype_names();
bool is_fp8(Dtype d);

// Bytes of one A/B element as stored in memory (tf32 is stored as fp32).
int input_bytes(Dtype d);
// Bytes of one element of the output D: fp16/bf16 -> same type, tf32 -> fp32, int8 -> int32,
// fp8 -> the input's fp8 format (f32 accumulators scaled and converted by the epilogue, as
// CUTLASS's sm90 fp8 GEMM example 54_hopper_fp8_warp_specialized_gemm has it: ElementC =
// ElementD = float_e4m3_t, ElementAccumulator = float; its generator stamps only fp8 D
// for the large 256x128x128 fp8 tiles, python/cutlass_library/sm90_utils.py).
int output_bytes(Dtype d);

// The dense mma.sync shape for this dtype: m16n8k16 (fp16/bf16), m16n8k8 (tf32), m16n8k32
// (int8, fp8). wgmma (m64nNk) takes the same K per dtype.
struct MmaShape {
  int m, n, k;
  std::int64_t fma() const { return std::int64_t(m) * n * k; }
};
MmaShape dense_mma_shape(Dtype d);

}  // namespace stcsim
