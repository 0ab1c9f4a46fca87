#include "workloads/loaders/onnx_tensor.h"

#include <cstring>
#include <optional>

#include "workloads/loaders/element_types.h"
#include "workloads/loaders/protobuf_wire.h"

namespace stcsim::workloads {
namespace {

// TensorProto.DataType values this reader decodes.
std::optional<ElemType> onnx_type(std::int64_t dt) {
  switch (dt) {
    case 1:
      return ElemType::F32;
    case 2:
      return ElemType::U8;
    case 3:
      return ElemType::I8;
    case 4:
      return ElemType::U16;
    case 5:
      return ElemType::I16;
    case 6:
      return ElemType::I32;
    case 7:
      return ElemType::I64;
    case 9:
      return ElemType::Bool;
    case 10:
      return ElemType::F16;
    case 11:
      return ElemType::F64;
    case 16:
      return ElemType::BF16;
    default:
      return std::nullopt;
  }
}

}  // namespace

Tensor decode_tensor_proto(const ByteReader& payload) {
  const std::string& file = payload.file();
  const std::uint64_t at = payload.offset();
  Tensor t;
  std::int64_t data_type = 0;
  std::optional<WireField> raw;
  std::vector<float> floats;
  std::vector<std::int64_t> ints;  // int32_data (also fp16/bf16 bit patterns) or int64_data
  std::vector<double> doubles;
  WireReader w(payload);
  while (!w.at_end()) {
    const WireField f = w.next();
    switch (f.number) {
      case 1:
        append_varints(f, t.shape);
        break;  // dims
      case 2:
        require_wire_type(file, f, 0, "data_type");
        data_type = static_cast<std::int64_t>(f.varint);
        break;
      case 4:
        append_floats(f, floats);
        break;  // float_data
      case 5:
      case 7:
      case 11:
        append_varints(f, ints);
        break;  // int32/int64/uint64_data
      case 8:
        require_wire_type(file, f, 2, "name");
        t.name = field_string(f);
        break;
      case 9:
        require_wire_type(file, f, 2, "raw_data");
        raw = f;
        break;
      case 10: {  // double_data
        if (f.wire_type == 1) {
          double d;
          std::memcpy(&d, &f.varint, 8);
          doubles.push_back(d);
          break;
        }
        require_wire_type(file, f, 2, "double_data");
        ByteReader r = f.bytes;
        while (!r.at_end()) doubles.push_back(le_f64(r.take(8, "packed double")));
        break;
      }
      case 13:
      case 14:
        if (f.number == 13 || f.varint == 1)
          throw_at(file, f.key_offset,
                   "tensor '" + t.name +
                       "' keeps its data in an external file; "
                       "only self-contained .onnx files are supported");
        break;
      default:
        break;  // segment, doc_string, metadata: not needed
    }
  }
  const auto type = onnx_type(data_type);
  if (!type)
    throw_at(file, at,
             "tensor '" + t.name + "': data_type " + std::to_string(data_type) +
                 " is not supported (expected FLOAT, FLOAT16, BFLOAT16, DOUBLE, "
                 "INT8/16/32/64, UINT8/16 or BOOL)");
  const std::uint64_t n =
      checked_numel(t.shape, elem_size(*type), file, at, "tensor '" + t.name + "'");
  t.stored_dtype = stored_name(*type);
  // Counts are checked against the bytes present before anything is allocated, so a
  // lying shape cannot ask for more memory than the file holds.
  const auto count_error = [&](std::uint64_t got, const char* field) {
    throw_at(file, at,
             "tensor '" + t.name + "' " + shape_string(t.shape) + ": expected " +
                 std::to_string(n) + " values, " + field + " holds " + std::to_string(got));
  };
  if (raw) {
    ByteReader r = raw->bytes;
    if (r.remaining() != n * elem_size(*type))
      throw_at(file, r.offset(),
               "tensor '" + t.name + "' " + shape_string(t.shape) + " " + t.stored_dtype +
                   ": expected " + std::to_string(n * elem_size(*type)) +
                   " bytes of raw_data, got " + std::to_string(r.remaining()));
    t.data.resize(n);
    decode_elements(*type, r.take(r.remaining(), "raw_data"), n, t.data.data());
  } else if (*type == ElemType::F32) {
    if (floats.size() != n) count_error(floats.size(), "float_data");
    t.data = std::move(floats);
  } else if (*type == ElemType::F64) {
    if (doubles.size() != n) count_error(doubles.size(), "double_data");
    t.data.assign(doubles.begin(), doubles.end());
  } else {
    if (ints.size() != n) count_error(ints.size(), "int32_data/int64_data");
    t.data.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto bits = static_cast<std::uint16_t>(ints[i]);
      if (*type == ElemType::F16)
        t.data[i] = half_to_float(bits);
      else if (*type == ElemType::BF16)
        t.data[i] = bf16_to_float(bits);
      else
        t.data[i] = static_cast<float>(ints[i]);
    }
  }
  return t;
}

}  // namespace stcsim::workloads
