#include "tests/workloads_io/fixtures.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"

namespace stcsim::workloads::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "stcsim_wl_XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void write_file(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

void write_file(const std::string& path, const std::string& text) {
  write_file(path, to_bytes(text));
}

Bytes to_bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

void append_f32(Bytes& out, float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
}

void put_varint(Bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

Pb& Pb::varint_field(std::uint32_t field, std::uint64_t v) {
  put_varint(b, field << 3);
  put_varint(b, v);
  return *this;
}

Pb& Pb::float_field(std::uint32_t field, float v) {
  put_varint(b, field << 3 | 5);
  append_f32(b, v);
  return *this;
}

Pb& Pb::bytes_field(std::uint32_t field, const Bytes& payload) {
  put_varint(b, field << 3 | 2);
  put_varint(b, payload.size());
  b.insert(b.end(), payload.begin(), payload.end());
  return *this;
}

Pb& Pb::string_field(std::uint32_t field, const std::string& s) {
  return bytes_field(field, to_bytes(s));
}

Pb& Pb::packed_varints(std::uint32_t field, const std::vector<std::int64_t>& v) {
  Bytes p;
  for (auto x : v) put_varint(p, static_cast<std::uint64_t>(x));
  return bytes_field(field, p);
}

Pb& Pb::packed_floats(std::uint32_t field, const std::vector<float>& v) {
  Bytes p;
  for (float x : v) append_f32(p, x);
  return bytes_field(field, p);
}

int expect_every_truncation_fails(const Bytes& bytes, const std::string& file,
                                  const std::function<void(const Bytes&)>& parse) {
  int failed_cleanly = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const Bytes prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    try {
      parse(prefix);
      FAIL_CHECK("a prefix of " << n << " of " << bytes.size() << " bytes parsed without an error");
    } catch (const InputError& e) {
      const std::string msg = e.what();
      if (msg.find(file) == std::string::npos || msg.find("byte ") == std::string::npos)
        FAIL_CHECK("prefix " << n << ": message lacks the file or a byte offset: " << msg);
      else
        ++failed_cleanly;
    }
  }
  return failed_cleanly;
}

std::string input_error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL_CHECK("expected an InputError");
  return "";
}

}  // namespace stcsim::workloads::test
