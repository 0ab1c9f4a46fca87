// Shared by the libFuzzer targets: an input may be refused with InputError (what a user
// sees as exit 2), anything else escaping a parser (another exception, a crash, a
// sanitizer report, memory past libFuzzer's -rss_limit_mb) is a bug that the fuzzer keeps.
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"

namespace stcsim::fuzz {

// A small budget, so that admission (not the fuzzer's RSS limit) refuses big inputs.
inline void set_small_memory_limit() { max_memory_bytes() = std::uint64_t(256) << 20; }

template <typename F>
void refuse_only_with_input_error(F&& parse) {
  set_small_memory_limit();
  try {
    parse();
  } catch (const InputError&) {
    // a clean refusal
  }
}

// A folder of this process's own, for targets whose parsers read files by name.
inline std::string scratch_dir() {
  static const std::string dir = [] {
    const auto d =
        std::filesystem::temp_directory_path() / ("stcsim-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  return dir;
}

inline void write_bytes(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
}

// Splits one input into two files at the first "\n---\n" (the second may be empty).
struct TwoParts {
  std::string first, second;
};
inline TwoParts split_input(const std::uint8_t* data, std::size_t size) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const std::size_t at = all.find("\n---\n");
  if (at == std::string::npos) return {all, ""};
  return {all.substr(0, at + 1), all.substr(at + 5)};
}

}  // namespace stcsim::fuzz
