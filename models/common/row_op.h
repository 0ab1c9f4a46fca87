// The non-GEMM ops of a network that move most of its bytes outside the GEMMs: softmax,
// norms, activations, residual adds and embedding lookups. Each is `rows` rows of `n`
// elements, read from `inputs` tensors of that shape and written to `outputs`, with a
// fixed instruction count per element (the ops are memory-bound on every GPU preset;
// the instructions matter only where the rows are short).
//
// Instruction counts per element are read from the PyTorch CUDA kernels a framework runs
// for each op (aten/src/ATen/native/cuda: SoftMax.cu's cunn_SoftMaxForward, layer_norm's
// vectorized_layer_norm_kernel, the GELU/SiLU/add functors through
// vectorized_elementwise_kernel, embedding's indexSelectLargeIndex) counting one
// instruction per arithmetic operation, conversion and vectorized load or store share,
// not from SASS: an estimate to within a few instructions.
#pragma once
#include <string>
#include <vector>

#include "sim/core/input_error.h"

namespace stcsim {

enum class RowOpKind { None, Softmax, LayerNorm, RmsNorm, Gelu, SiluMul, Add, Embedding };

struct RowOpInfo {
  RowOpKind kind;
  const char* name;
  int inputs;           // tensors of rows x n read (SiLU-mul: gate and up; add: two)
  int outputs;          // tensors of rows x n written
  bool per_row_params;  // reads an n-element vector once (a norm's weight, and bias)
  int instructions;     // warp instructions per 32 elements (one per element per thread)
};

// Per element and thread: softmax reads x, converts, takes the running max and the sum
// of exp(x - max) (FMNMX, FADD, FMUL, MUFU.EX2, FADD), then scales (FMUL), converts and
// stores: 9 with the load and store shares. LayerNorm: Welford mean and variance (4),
// normalise and affine (3), two conversions, load and store: 11; RMSNorm skips the mean:
// 9. GELU (erf form): erf's polynomial and the products, about 12 with the conversions.
// SiLU-mul (SwiGLU's silu(gate) * up): two loads and conversions, exp, add, reciprocal,
// two products, conversion, store: 10. Add: two loads and conversions, FADD, conversion,
// store: 6. Embedding: an index load, then a copy: 3.
inline const std::vector<RowOpInfo>& row_op_infos() {
  static const std::vector<RowOpInfo> infos = {
      {RowOpKind::Softmax, "softmax", 1, 1, false, 9},      // over each row
      {RowOpKind::LayerNorm, "layernorm", 1, 1, true, 11},  // over each row, weight and bias
      {RowOpKind::RmsNorm, "rmsnorm", 1, 1, true, 9},       // over each row, weight
      {RowOpKind::Gelu, "gelu", 1, 1, false, 12},
      {RowOpKind::SiluMul, "silu_mul", 2, 1, false, 10},    // SwiGLU's silu(gate) * up
      {RowOpKind::Add, "add", 2, 1, false, 6},              // a residual add
      {RowOpKind::Embedding, "embedding", 1, 1, false, 3},  // a table row gathered per token
  };
  return infos;
}

// "softmax, layernorm, ..." for messages.
inline std::string row_op_names() {
  std::string s;
  for (const auto& i : row_op_infos()) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

inline const RowOpInfo& row_op_info(RowOpKind k) {
  for (const auto& i : row_op_infos())
    if (i.kind == k) return i;
  throw InputError("not a row op (RowOpKind::None)");
}

// "softmax", "layernorm", ...; InputError naming the valid ones otherwise.
inline RowOpKind parse_row_op(const std::string& name) {
  for (const auto& i : row_op_infos())
    if (name == i.name) return i.kind;
  throw InputError("unknown row op '" + name + "' (expected one of " + row_op_names() + ")");
}

}  // namespace stcsim
