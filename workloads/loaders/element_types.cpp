#include "workloads/loaders/element_types.h"

#include <cmath>
#include <cstring>

#include "workloads/loaders/byte_reader.h"

namespace stcsim::workloads {

std::size_t elem_size(ElemType t) {
  switch (t) {
    case ElemType::F32:
    case ElemType::I32:
      return 4;
    case ElemType::F16:
    case ElemType::BF16:
    case ElemType::I16:
    case ElemType::U16:
      return 2;
    case ElemType::F64:
    case ElemType::I64:
      return 8;
    case ElemType::I8:
    case ElemType::U8:
    case ElemType::Bool:
      return 1;
  }
  return 1;
}

const char* stored_name(ElemType t) {
  switch (t) {
    case ElemType::F32:
      return "float32";
    case ElemType::F16:
      return "float16";
    case ElemType::BF16:
      return "bfloat16";
    case ElemType::F64:
      return "float64";
    case ElemType::I8:
      return "int8";
    case ElemType::U8:
      return "uint8";
    case ElemType::I16:
      return "int16";
    case ElemType::U16:
      return "uint16";
    case ElemType::I32:
      return "int32";
    case ElemType::I64:
      return "int64";
    case ElemType::Bool:
      return "bool";
  }
  return "?";
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(man), -24);  // zero and subnormals
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(man | 0x400u), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

float bf16_to_float(std::uint16_t b) {
  const std::uint32_t u = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::uint16_t float_to_half(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: inf
  if (abs < 0x38800000u) {                        // below the smallest normal half
    // Subnormal: value / 2^-24, rounded to nearest even by the FPU.
    const float scaled = std::ldexp(std::fabs(f), 24);
    return sign | static_cast<std::uint16_t>(std::nearbyint(scaled));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to nearest even.
  const std::uint32_t rebased = abs - (112u << 23);
  const std::uint32_t half = rebased >> 13, rest = rebased & 0x1fffu;
  const std::uint32_t up = rest > 0x1000u || (rest == 0x1000u && (half & 1u));
  return sign | static_cast<std::uint16_t>(half + up);
}

void decode_elements(ElemType t, const std::uint8_t* p, std::size_t n, float* out) {
  const std::size_t s = elem_size(t);
  for (std::size_t i = 0; i < n; ++i, p += s) {
    switch (t) {
      case ElemType::F32:
        out[i] = le_f32(p);
        break;
      case ElemType::F16:
        out[i] = half_to_float(le16(p));
        break;
      case ElemType::BF16:
        out[i] = bf16_to_float(le16(p));
        break;
      case ElemType::F64:
        out[i] = static_cast<float>(le_f64(p));
        break;
      case ElemType::I8:
        out[i] = static_cast<std::int8_t>(*p);
        break;
      case ElemType::U8:
      case ElemType::Bool:
        out[i] = *p;
        break;
      case ElemType::I16:
        out[i] = static_cast<std::int16_t>(le16(p));
        break;
      case ElemType::U16:
        out[i] = le16(p);
        break;
      case ElemType::I32:
        out[i] = static_cast<float>(static_cast<std::int32_t>(le32(p)));
        break;
      case ElemType::I64:
        out[i] = static_cast<float>(static_cast<std::int64_t>(le64(p)));
        break;
    }
  }
}

std::uint64_t checked_numel(const std::vector<std::int64_t>& shape, std::size_t elem_bytes,
                            const std::string& file, std::uint64_t offset,
                            const std::string& what) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 62;
  std::uint64_t n = 1;
  for (auto d : shape) {
    if (d < 0)
      throw_at(file, offset, what + ": negative dimension in shape " + shape_string(shape));
    if (d != 0 && n > kLimit / static_cast<std::uint64_t>(d))
      throw_at(file, offset, what + ": shape " + shape_string(shape) + " is impossibly large");
    n *= static_cast<std::uint64_t>(d);
  }
  if (elem_bytes && n > kLimit / elem_bytes)
    throw_at(file, offset, what + ": shape " + shape_string(shape) + " is impossibly large");
  return n;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace stcsim::workloads
