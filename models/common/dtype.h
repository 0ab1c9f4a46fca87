// Operand data types of the tensor-core datapath and the warp-level mma shape the
// PTX ISA gives each of them (mma.sync.aligned.m16n8kK).
#pragma once
#include <cstdint>
#include <string>

namespace stcsim {

enum class Dtype { FP16, BF16, TF32, INT8 };

inline constexpr Dtype kAllDtypes[] = {Dtype::FP16, Dtype::BF16, Dtype::TF32, Dtype::INT8};

const char* to_string(Dtype d);
Dtype parse_dtype(const std::string& s);  // throws InputError listing valid names

// Bytes of one A/B element as stored in memory (tf32 is stored as fp32).
int input_bytes(Dtype d);
// Bytes of one element of the output D (fp16/bf16 -> same type, tf32 -> fp32, int8 -> int32).
int output_bytes(Dtype d);

// The dense mma.sync shape for this dtype: m16n8k16 (fp16/bf16), m16n8k8 (tf32), m16n8k32 (int8).
struct MmaShape {
  int m, n, k;
  std::int64_t fma() const { return std::int64_t(m) * n * k; }
};
MmaShape dense_mma_shape(Dtype d);

}  // namespace stcsim
