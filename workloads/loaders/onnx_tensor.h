// ONNX TensorProto -> Tensor (used by onnx.cpp for initializers and Constant values).
#pragma once
#include "workloads/loaders/byte_reader.h"
#include "workloads/tensor.h"

namespace stcsim::workloads {

// Decodes the TensorProto in `payload`; values from raw_data (little-endian) or from the
// typed repeated fields. InputError (with the file offset) on an unsupported data_type,
// external data, or a value count that does not match the dims.
Tensor decode_tensor_proto(const ByteReader& payload);

}  // namespace stcsim::workloads
