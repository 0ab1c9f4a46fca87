// safetensors (what users' own checkpoints are): u64 little-endian header length N, a
// JSON header of N bytes {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__":
// {str: str}}, then the byte buffer the offsets index (relative to its start).
// dtypes F32 F16 BF16 F64 I8 U8 I16 I32 I64 BOOL, decoded to fp32.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace stcsim::workloads {

// Tensors in the order of their data in the file. As in the reference implementation,
// the entries must tile the buffer exactly: no overlap, no gap, nothing out of range.
// `metadata`, when given, receives "__metadata__".
std::vector<Tensor> load_safetensors(const std::string& path,
                                     std::map<std::string, std::string>* metadata = nullptr);
std::vector<Tensor> parse_safetensors(const std::vector<std::uint8_t>& bytes,
                                      const std::string& file,
                                      std::map<std::string, std::string>* metadata = nullptr);

}  // namespace stcsim::workloads
