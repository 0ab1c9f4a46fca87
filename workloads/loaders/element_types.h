// Element types the weight files store, decoded to fp32 in one place (npy, safetensors,
// TF.js and ONNX all share these), and shape arithmetic that cannot overflow.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stcsim::workloads {

enum class ElemType { F32, F16, BF16, F64, I8, U8, I16, U16, I32, I64, Bool };

std::size_t elem_size(ElemType t);
// The Tensor::stored_dtype spelling: "float32", "float16", "bfloat16", "int8", ...
const char* stored_name(ElemType t);

// Decodes `count` little-endian elements at p (the caller checked the bytes are there).
void decode_elements(ElemType t, const std::uint8_t* p, std::size_t count, float* out);

float half_to_float(std::uint16_t h);
float bf16_to_float(std::uint16_t b);
std::uint16_t float_to_half(float f);  // round to nearest even, overflow to inf

// The element count of `shape`; InputError at (file, offset) naming `what` when a
// dimension is negative or count * elem_bytes would not fit in 2^62 bytes.
std::uint64_t checked_numel(const std::vector<std::int64_t>& shape, std::size_t elem_bytes,
                            const std::string& file, std::uint64_t offset, const std::string& what);

std::string shape_string(const std::vector<std::int64_t>& shape);  // "[3, 3, 64, 64]"

}  // namespace stcsim::workloads
