// The GEMMs of a run: from --gemm MxNxK flags, from a trace file, or the built-in
// default set. Trace format 0 (minimal; workloads/ defines the full trace format):
//   # comment
//   stcsim-trace 0
//   <M>x<N>x<K> [dtype] [name]
#pragma once
#include <string>
#include <vector>

#include "models/common/gemm_op.h"

namespace stcsim {

// Parse "MxNxK" (positive integers); throws InputError naming `where`.
GemmOp parse_gemm(const std::string& text, Dtype dtype, const std::string& where);

// Read a trace; errors name the file and line.
std::vector<GemmOp> read_gemm_trace(const std::string& path, Dtype default_dtype);

// The default workload: one BERT-base encoder layer (batch 8 x sequence 512 tokens)
// plus a square 4096^3, in the given dtype.
std::vector<GemmOp> default_gemms(Dtype dtype);

}  // namespace stcsim
