// A hook through which functional mode computes one instruction-K chunk of one output
// element with a tensor core's own dot-product unit (e.g. the Verilated RTL of `impl:
// rtl`) instead of the golden model (numerics mma_dot / mma_dot_int). An empty hook
// means the golden model.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace stcsim::functional {

// One instruction's dot product of one output element: d = c + sum_i w[i] * x[i].
// w is the weight row chunk (the operand an N:M pattern prunes, A of mma.sp), x the
// activation row chunk; both are bit patterns as gemm_values holds them (fp16/bf16 in
// the low 16 bits, int8 as int32). The chunk is zero-padded to the instruction's K.
struct DotChunk {
  const std::uint32_t* w = nullptr;
  const std::uint32_t* x = nullptr;
  int k = 0;
  std::uint32_t c = 0;           // running accumulator: fp32 bits, or int32
  std::int64_t row = 0, k0 = 0;  // weight row and first k, for error messages
};

struct DotUnit {
  std::string name;  // what computes the values, for the stats ("Verilated sp24_dot ...")
  std::function<std::uint32_t(const DotChunk&)> fn;
  explicit operator bool() const { return bool(fn); }
};

}  // namespace stcsim::functional
