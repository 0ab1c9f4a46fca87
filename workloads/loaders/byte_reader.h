// Bounds-checked little-endian reads over a file's bytes: the one place every loader
// reads raw data through, so a truncated or lying file becomes an InputError that names
// the file and the byte offset, never an out-of-bounds read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stcsim::workloads {

// Throws InputError "FILE: byte OFFSET: WHAT".
[[noreturn]] void throw_at(const std::string& file, std::uint64_t offset, const std::string& what);

// The whole file; InputError when it cannot be opened or read.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

// A cursor over [data, data + size) whose offsets are reported as base + position, so a
// reader over a sub-range (a protobuf sub-message, a shard) still names file offsets.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size, std::string file, std::uint64_t base = 0);

  std::uint64_t offset() const { return base_ + pos_; }  // in the file
  std::size_t position() const { return pos_; }          // in this range
  std::size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }
  const std::string& file() const { return file_; }

  // `what` says what was being read, for the error ("header length", "weight 'x'").
  std::uint8_t u8(const char* what);
  std::uint16_t u16(const char* what);
  std::uint32_t u32(const char* what);
  std::uint64_t u64(const char* what);
  // The next n bytes, which must all be there; advances past them.
  const std::uint8_t* take(std::size_t n, const std::string& what);
  void skip(std::size_t n, const std::string& what) { take(n, what); }
  // A reader over the next n bytes (checked), advancing this one past them.
  ByteReader sub(std::size_t n, const std::string& what);

  [[noreturn]] void fail(const std::string& what) const { throw_at(file_, offset(), what); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::string file_;
  std::uint64_t base_;
};

// Decoders of single little-endian values from bytes already bounds-checked.
std::uint16_t le16(const std::uint8_t* p);
std::uint32_t le32(const std::uint8_t* p);
std::uint64_t le64(const std::uint8_t* p);
float le_f32(const std::uint8_t* p);
double le_f64(const std::uint8_t* p);
void put_le16(std::vector<std::uint8_t>& out, std::uint16_t v);
void put_le32(std::vector<std::uint8_t>& out, std::uint32_t v);
void put_le64(std::vector<std::uint8_t>& out, std::uint64_t v);

}  // namespace stcsim::workloads
