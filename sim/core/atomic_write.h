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
#include <vector>

#include "sim/core/input_error.h"

namespace stcsim {

namespace atomic_write_detail {

// Writes `size` bytes to "<dir>/.<name>.tmp.<pid>" beside `path`, flushed to the disk, and
// returns that name; on failure removes it and throws naming `path`.
inline std::filesystem::path write_temporary(const std::string& path, const void* data,
                                             std::size_t size) {
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
  if (!(wrote && flushed && closed)) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw InputError(path + ": write failed (disk full?); the previous file, if any, is unchanged");
  }
  return tmp;
}

// Renames `tmp` over `path`; on failure removes `tmp` and throws naming `path`.
inline void replace_with(const std::filesystem::path& tmp, const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw InputError(path + ": cannot replace the file: " + ec.message());
  }
}

}  // namespace atomic_write_detail

// Writes `size` bytes to `path` through "<dir>/.<name>.tmp.<pid>".
inline void write_atomically(const std::string& path, const void* data, std::size_t size) {
  atomic_write_detail::replace_with(atomic_write_detail::write_temporary(path, data, size), path);
}

inline void write_atomically(const std::string& path, const std::string& text) {
  write_atomically(path, text.data(), text.size());
}

// A run's output files replaced as one set: each is written whole to its temporary name
// (write) and commit() renames them all into place, so a failure while writing any of
// them (a full disk after op0_x.npy) leaves every previous file of the set as it was, not
// a new x beside an old y. Temporaries not committed are removed on destruction.
class StagedFiles {
 public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  ~StagedFiles() {
    for (const auto& f : staged_) {
      std::error_code ignored;
      std::filesystem::remove(f.tmp, ignored);
    }
  }

  void write(const std::string& path, const void* data, std::size_t size) {
    staged_.push_back({atomic_write_detail::write_temporary(path, data, size), path});
  }
  void write(const std::string& path, const std::string& text) {
    write(path, text.data(), text.size());
  }
  // Renames every staged file over its target, in the order written.
  void commit() {
    while (!staged_.empty()) {
      const Staged f = staged_.front();
      staged_.erase(staged_.begin());
      atomic_write_detail::replace_with(f.tmp, f.path);
    }
  }

 private:
  struct Staged {
    std::filesystem::path tmp;
    std::string path;
  };
  std::vector<Staged> staged_;
};

}  // namespace stcsim
