#include "workloads/loaders/protobuf_wire.h"

#include <cstring>

namespace stcsim::workloads {

std::uint64_t read_varint(ByteReader& r, const char* what) {
  const std::uint64_t start = r.offset();
  std::uint64_t v = 0;
  for (int i = 0; i < 10; ++i) {
    if (r.at_end())
      throw_at(r.file(), start,
               std::string("malformed varint (") + what + "): it runs past the end of its message");
    const std::uint8_t b = r.u8(what);
    if (i == 9 && b > 1)
      throw_at(r.file(), start, std::string("malformed varint (") + what + "): over 64 bits");
    v |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) return v;
  }
  throw_at(r.file(), start, std::string("malformed varint (") + what + "): longer than 10 bytes");
}

WireField WireReader::next() {
  WireField f;
  f.key_offset = r_.offset();
  const std::uint64_t key = read_varint(r_, "field key");
  f.number = static_cast<std::uint32_t>(key >> 3);
  f.wire_type = static_cast<std::uint32_t>(key & 7);
  if (f.number == 0 || (key >> 3) > 0x1fffffff)
    throw_at(r_.file(), f.key_offset, "expected a field key with a field number in 1..2^29-1");
  switch (f.wire_type) {
    case 0:
      f.varint = read_varint(r_, "field value");
      break;
    case 1:
      f.varint = r_.u64("a 64-bit field");
      break;
    case 5:
      f.varint = r_.u32("a 32-bit field");
      break;
    case 2: {
      const std::uint64_t len_at = r_.offset();
      const std::uint64_t len = read_varint(r_, "field length");
      if (len > r_.remaining())
        throw_at(r_.file(), len_at,
                 "field " + std::to_string(f.number) + ": length " + std::to_string(len) +
                     " runs past the end of its message (" + std::to_string(r_.remaining()) +
                     " bytes left)");
      f.bytes = r_.sub(static_cast<std::size_t>(len), "field payload");
      break;
    }
    default:
      throw_at(r_.file(), f.key_offset,
               "field " + std::to_string(f.number) + ": wire type " + std::to_string(f.wire_type) +
                   " is not one of 0, 1, 2, 5 (groups are not supported)");
  }
  return f;
}

void require_wire_type(const std::string& file, const WireField& f, std::uint32_t expected,
                       const char* field_name) {
  if (f.wire_type != expected)
    throw_at(file, f.key_offset,
             std::string("field ") + field_name + " (" + std::to_string(f.number) +
                 "): expected wire type " + std::to_string(expected) + ", got " +
                 std::to_string(f.wire_type));
}

void append_varints(const WireField& f, std::vector<std::int64_t>& out) {
  if (f.wire_type == 0) {
    out.push_back(static_cast<std::int64_t>(f.varint));
    return;
  }
  ByteReader r = f.bytes;  // packed: a run of varints filling the payload
  while (!r.at_end()) out.push_back(static_cast<std::int64_t>(read_varint(r, "packed value")));
}

void append_floats(const WireField& f, std::vector<float>& out) {
  if (f.wire_type == 5) {
    out.push_back(field_float(f));
    return;
  }
  ByteReader r = f.bytes;
  if (r.remaining() % 4 != 0)
    throw_at(r.file(), r.offset(),
             "packed floats: expected a multiple of 4 bytes, got " + std::to_string(r.remaining()));
  while (!r.at_end()) out.push_back(le_f32(r.take(4, "packed float")));
}

std::string field_string(const WireField& f) {
  ByteReader r = f.bytes;
  const std::size_t n = r.remaining();
  return std::string(reinterpret_cast<const char*>(r.take(n, "string")), n);
}

float field_float(const WireField& f) {
  const std::uint32_t u = static_cast<std::uint32_t>(f.varint);
  float v;
  std::memcpy(&v, &u, 4);
  return v;
}

}  // namespace stcsim::workloads
