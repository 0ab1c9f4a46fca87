// FNV-1a fingerprints of a sweep's inputs (its base config, its traces), recorded in its
// plan so that a resumed sweep notices a changed input.
#pragma once
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace stcsim::sweep {

inline std::uint64_t fnv1a(const char* data, std::size_t n,
                           std::uint64_t h = 1469598103934665603ull) {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ std::uint8_t(data[i])) * 1099511628211ull;
  return h;
}

inline std::string hex(std::uint64_t h) {
  std::ostringstream os;
  os << std::hex << h;
  return os.str();
}

// The file's fingerprint in hex, or "unreadable".
inline std::string fingerprint_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "unreadable";
  std::uint64_t h = 1469598103934665603ull;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    h = fnv1a(buf, std::size_t(in.gcount()), h);
    if (!in) break;
  }
  return hex(h);
}

}  // namespace stcsim::sweep
