#include "models/common/dtype.h"

#include "sim/core/input_error.h"

namespace stcsim {

const char* to_string(Dtype d) {
  switch (d) {
    case Dtype::FP16:
      return "fp16";
    case Dtype::BF16:
      return "bf16";
    case Dtype::TF32:
      return "tf32";
    case Dtype::INT8:
      return "int8";
    case Dtype::FP8_E4M3:
      return "fp8_e4m3";
    case Dtype::FP8_E5M2:
      return "fp8_e5m2";
  }
  return "?";
}

std::string dtype_names() {
  std::string s;
  for (Dtype d : kAllDtypes) s += (s.empty() ? "" : "|") + std::string(to_string(d));
  return s;
}

Dtype parse_dtype(const std::string& s) {
  for (Dtype d : kAllDtypes)
    if (s == to_string(d)) return d;
  throw InputError("unknown dtype '" + s + "' (expected " + dtype_names() + ")");
}

bool is_fp8(Dtype d) { return d == Dtype::FP8_E4M3 || d == Dtype::FP8_E5M2; }

int input_bytes(Dtype d) {
  switch (d) {
    case Dtype::FP16:
    case Dtype::BF16:
      return 2;
    case Dtype::TF32:
      return 4;
    case Dtype::INT8:
    case Dtype::FP8_E4M3:
    case Dtype::FP8_E5M2:
      return 1;
  }
  return 0;
}

int output_bytes(Dtype d) {
  switch (d) {
    case Dtype::FP16:
    case Dtype::BF16:
      return 2;
    case Dtype::TF32:
    case Dtype::INT8:
      return 4;
    case Dtype::FP8_E4M3:
    case Dtype::FP8_E5M2:
      return 1;
  }
  return 0;
}

MmaShape dense_mma_shape(Dtype d) {
  switch (d) {
    case Dtype::FP16:
    case Dtype::BF16:
      return {16, 8, 16};
    case Dtype::TF32:
      return {16, 8, 8};
    case Dtype::INT8:
    case Dtype::FP8_E4M3:
    case Dtype::FP8_E5M2:
      return {16, 8, 32};
  }
  return {16, 8, 16};
}

}  // namespace stcsim
