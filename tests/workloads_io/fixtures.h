// Helpers for the loader tests: a temporary folder, files from bytes, hand-built
// protobuf wire bytes, and the truncation fuzz every loader must pass.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stcsim::workloads::test {

using Bytes = std::vector<std::uint8_t>;

// A fresh folder under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_file(const std::string& path, const Bytes& bytes);
void write_file(const std::string& path, const std::string& text);
Bytes to_bytes(const std::string& s);
void append_f32(Bytes& out, float v);

// Protobuf wire format, for building ONNX fixtures by hand.
struct Pb {
  Bytes b;
  Pb& varint_field(std::uint32_t field, std::uint64_t v);      // wire type 0
  Pb& float_field(std::uint32_t field, float v);               // wire type 5
  Pb& bytes_field(std::uint32_t field, const Bytes& payload);  // wire type 2
  Pb& string_field(std::uint32_t field, const std::string& s);
  Pb& message(std::uint32_t field, const Pb& m) { return bytes_field(field, m.b); }
  Pb& packed_varints(std::uint32_t field, const std::vector<std::int64_t>& v);
  Pb& packed_floats(std::uint32_t field, const std::vector<float>& v);
};
void put_varint(Bytes& out, std::uint64_t v);

// Calls parse on every strict prefix of `bytes` (lengths 0 .. size-1); each must throw
// stcsim::InputError whose message names `file` and a byte offset. Returns how many did.
int expect_every_truncation_fails(const Bytes& bytes, const std::string& file,
                                  const std::function<void(const Bytes&)>& parse);

// The message of the InputError that fn throws ("" and a test failure if none).
std::string input_error_of(const std::function<void()>& fn);

}  // namespace stcsim::workloads::test
