#include "workloads/loaders/byte_reader.h"

#include <cstring>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/core/memory_limit.h"

namespace stcsim::workloads {

void throw_at(const std::string& file, std::uint64_t offset, const std::string& what) {
  throw InputError(file + ": byte " + std::to_string(offset) + ": " + what);
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  // Regular files only, sized before reading: a directory or /dev/zero is refused by name.
  const std::uint64_t size = regular_file_size(path, "the file");
  admit_memory(size, path + " (" + std::to_string(size) + " bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the file");
  std::vector<std::uint8_t> bytes(std::size_t(size), 0);
  in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size));
  bytes.resize(std::size_t(in.gcount()));  // a file that shrank meanwhile: as far as it goes
  if (in.bad()) throw InputError(path + ": read error");
  return bytes;
}

ByteReader::ByteReader(const std::uint8_t* data, std::size_t size, std::string file,
                       std::uint64_t base)
    : data_(data), size_(size), file_(std::move(file)), base_(base) {}

const std::uint8_t* ByteReader::take(std::size_t n, const std::string& what) {
  if (n > remaining())
    fail("expected " + std::to_string(n) + " bytes of " + what + ", only " +
         std::to_string(remaining()) + " left");
  const std::uint8_t* p = data_ + pos_;
  pos_ += n;
  return p;
}

ByteReader ByteReader::sub(std::size_t n, const std::string& what) {
  const std::uint64_t at = offset();
  const std::uint8_t* p = take(n, what);
  return ByteReader(p, n, file_, at);
}

std::uint8_t ByteReader::u8(const char* what) { return *take(1, what); }
std::uint16_t ByteReader::u16(const char* what) { return le16(take(2, what)); }
std::uint32_t ByteReader::u32(const char* what) { return le32(take(4, what)); }
std::uint64_t ByteReader::u64(const char* what) { return le64(take(8, what)); }

// Assembled byte by byte so the result does not depend on the host's byte order.
std::uint16_t le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(le16(p)) | (static_cast<std::uint32_t>(le16(p + 2)) << 16);
}
std::uint64_t le64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(le32(p)) | (static_cast<std::uint64_t>(le32(p + 4)) << 32);
}
float le_f32(const std::uint8_t* p) {
  const std::uint32_t u = le32(p);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double le_f64(const std::uint8_t* p) {
  const std::uint64_t u = le64(p);
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
void put_le16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put_le32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  put_le16(out, static_cast<std::uint16_t>(v));
  put_le16(out, static_cast<std::uint16_t>(v >> 16));
}
void put_le64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  put_le32(out, static_cast<std::uint32_t>(v));
  put_le32(out, static_cast<std::uint32_t>(v >> 32));
}

}  // namespace stcsim::workloads
