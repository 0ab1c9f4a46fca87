// Every output file is written to a temporary name beside it and renamed over the target:
// a run killed at any moment, a full disk or a failed write leaves the previous file
// intact and no partial file (the temporary is removed on failure). rename(2) within a
// folder is atomic on POSIX file systems.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "sim/core/input_error.h"

namespace stcsim {

// Writes `size` bytes to `path` through "<dir>/.<name>.tmp.<pid>".
inline void write_atomically(const std::string& path, const void* data, std::size_t size) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path tmp = target.parent_path() /
                       ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()));
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw InputError(path + ": cannot write (the folder is missing or not writable)");
  const bool wrote = std::fwrite(data, 1, size, f) == size;
  // fflush and fsync surface a full disk here, before the rename, not later.
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  std::error_code ec;
  if (!(wrote && flushed && closed)) {
    fs::remove(tmp, ec);
    throw InputError(path + ": write failed (disk full?); the previous file, if any, is unchanged");
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw InputError(path + ": cannot replace the file: " + ec.message());
  }
}

inline void write_atomically(const std::string& path, const std::string& text) {
  write_atomically(path, text.data(), text.size());
}

}  // namespace stcsim
