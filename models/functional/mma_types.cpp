#include "models/functional/mma_types.h"

#include <stdexcept>

#include "sim/core/input_error.h"

namespace stcsim::functional {

const char* to_string(MmaType t) {
  switch (t) {
    case MmaType::F16:
      return "f16";
    case MmaType::BF16:
      return "bf16";
    case MmaType::TF32:
      return "tf32";
    case MmaType::S8:
      return "s8";
  }
  return "?";
}

const char* to_string(Shape s) {
  switch (s) {
    case Shape::M16N8K8:
      return "m16n8k8";
    case Shape::M16N8K16:
      return "m16n8k16";
    case Shape::M16N8K32:
      return "m16n8k32";
    case Shape::M16N8K64:
      return "m16n8k64";
  }
  return "?";
}

int k_of(Shape s) {
  switch (s) {
    case Shape::M16N8K8:
      return 8;
    case Shape::M16N8K16:
      return 16;
    case Shape::M16N8K32:
      return 32;
    case Shape::M16N8K64:
      return 64;
  }
  return 0;
}

int element_bits(MmaType t) { return t == MmaType::TF32 ? 32 : t == MmaType::S8 ? 8 : 16; }

numerics::FloatFormat float_format(MmaType t) {
  switch (t) {
    case MmaType::F16:
      return numerics::FloatFormat::FP16;
    case MmaType::BF16:
      return numerics::FloatFormat::BF16;
    case MmaType::TF32:
      return numerics::FloatFormat::TF32;
    case MmaType::S8:
      break;
  }
  throw std::invalid_argument("s8 is not a floating-point format");
}

std::string type_pair(MmaType t) {
  return std::string(to_string(t)) + (t == MmaType::S8 ? "_s32" : "_f32");
}

bool dense_supported(Shape s, MmaType t) {
  switch (t) {
    case MmaType::F16:
    case MmaType::BF16:
      return s == Shape::M16N8K8 || s == Shape::M16N8K16;
    case MmaType::TF32:
      return s == Shape::M16N8K8;
    case MmaType::S8:
      return s == Shape::M16N8K32;
  }
  return false;
}

bool sparse_supported(Shape s, MmaType t) {
  switch (t) {
    case MmaType::F16:
    case MmaType::BF16:
      return s == Shape::M16N8K16 || s == Shape::M16N8K32;
    case MmaType::TF32:
      return s == Shape::M16N8K8 || s == Shape::M16N8K16;
    case MmaType::S8:
      return s == Shape::M16N8K32 || s == Shape::M16N8K64;
  }
  return false;
}

sparse::MmaSpForm sparse_form(Shape s, MmaType t) {
  using F = sparse::MmaSpForm;
  if (sparse_supported(s, t)) {
    switch (t) {
      case MmaType::F16:
      case MmaType::BF16:
        return s == Shape::M16N8K16 ? F::F16_M16N8K16 : F::F16_M16N8K32;
      case MmaType::TF32:
        return s == Shape::M16N8K8 ? F::TF32_M16N8K8 : F::TF32_M16N8K16;
      case MmaType::S8:
        return s == Shape::M16N8K32 ? F::S8_M16N8K32 : F::S8_M16N8K64;
    }
  }
  throw InputError(std::string("no mma.sp ") + to_string(s) + " for " + to_string(t));
}

int a_regs(Shape s, MmaType t, bool sparse) {
  // Two rows (g, g+8) per lane, K * bits / 4 lanes of them: K*bits/64 registers.
  const int dense = k_of(s) * element_bits(t) / 64;
  return sparse ? dense / 2 : dense;
}

int b_regs(Shape s, MmaType t) { return k_of(s) * element_bits(t) / 128; }

}  // namespace stcsim::functional
