// Reading a file the user named. Only regular files are read: a directory, a FIFO or a
// device such as /dev/zero is refused by name before a byte is read, and so is a file
// larger than the memory limit, so a hostile path can neither hang a reader nor make it
// allocate without bound. Every loader and parser opens its input through here.
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "sim/core/input_error.h"
#include "sim/core/memory_limit.h"

namespace stcsim {

// The size of the regular file at `path`; otherwise InputError naming the path and `what`
// ("config file", "trace file").
inline std::uint64_t regular_file_size(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows symlinks: the target counts
  if (ec || !fs::exists(st)) throw InputError(path + ": cannot open " + what);
  if (fs::is_directory(st))
    throw InputError(path + ": the " + what + " is a directory; expected a file");
  if (!fs::is_regular_file(st))
    throw InputError(path + ": the " + what + " is not a regular file (a device, FIFO or socket)");
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read the size of the " + what + ": " + ec.message());
  return size;
}

// The whole regular file, at most the memory limit.
inline std::string read_input_file(const std::string& path, const std::string& what) {
  const std::uint64_t size = regular_file_size(path, what);
  admit_memory(size, path + ": the " + what + " (" + std::to_string(size) + " bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open " + what);
  std::string text(std::size_t(size), '\0');
  in.read(text.data(), std::streamsize(size));
  // A file that shrank between the size check and the read is read as far as it goes.
  text.resize(std::size_t(in.gcount()));
  if (in.bad()) throw InputError(path + ": read error in the " + what);
  return text;
}

}  // namespace stcsim
