// The protobuf wire format, by hand (no protobuf library): a message is a sequence of
// fields, each a varint key (field number << 3 | wire type) and a value: varint (0),
// 64-bit (1), length-delimited (2: bytes, strings, sub-messages, packed repeated) or
// 32-bit (5). Malformed varints and lengths become InputError with the file offset.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/loaders/byte_reader.h"

namespace stcsim::workloads {

struct WireField {
  std::uint32_t number = 0;
  std::uint32_t wire_type = 0;
  std::uint64_t varint = 0;          // wire types 0, 1 (raw 64 bits) and 5 (raw 32 bits)
  std::uint64_t key_offset = 0;      // file offset of the field's key
  ByteReader bytes{nullptr, 0, ""};  // wire type 2: the payload
};

class WireReader {
 public:
  explicit WireReader(ByteReader r) : r_(std::move(r)) {}
  bool at_end() const { return r_.at_end(); }
  std::uint64_t offset() const { return r_.offset(); }
  const std::string& file() const { return r_.file(); }
  // The next field; InputError on a malformed key, varint, length or wire type.
  WireField next();

 private:
  ByteReader r_;
};

// A varint at r (at most 10 bytes, the 10th at most 1).
std::uint64_t read_varint(ByteReader& r, const char* what);

// Packed or unpacked repeated scalars: appends the values of `f` to `out`.
void append_varints(const WireField& f, std::vector<std::int64_t>& out);
void append_floats(const WireField& f, std::vector<float>& out);  // fixed32 floats
std::string field_string(const WireField& f);
float field_float(const WireField& f);  // a fixed32 float (wire type 5)

// InputError when f's wire type is not `expected`, naming the message and field.
void require_wire_type(const std::string& file, const WireField& f, std::uint32_t expected,
                       const char* field_name);

}  // namespace stcsim::workloads
