// Outputs are checked writable before the simulation starts: an 8192^3 run into a
// read-only folder once failed only after it had run, and its results were gone.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "sim/core/input_error.h"

namespace stcsim {

// Creates `dir` (and its parents) and proves it writable by creating and removing a file.
inline void check_output_dir(const std::string& option, const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.empty()) throw InputError(option + ": expected a directory, got an empty string");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(option + " " + dir + ": cannot create the directory: " + ec.message());
  if (!fs::is_directory(dir, ec)) throw InputError(option + " " + dir + ": not a directory");
  const fs::path probe = fs::path(dir) / (".stcsim-write-check." + std::to_string(::getpid()));
  {
    std::ofstream out(probe);
    if (!out) throw InputError(option + " " + dir + ": the directory is not writable");
  }
  fs::remove(probe, ec);
}

// The folder a file will be written into must exist and be writable.
inline void check_output_file(const std::string& option, const std::string& file) {
  namespace fs = std::filesystem;
  if (file.empty()) throw InputError(option + ": expected a file name, got an empty string");
  const fs::path parent =
      fs::path(file).parent_path().empty() ? fs::path(".") : fs::path(file).parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw InputError(option + " " + file + ": the folder " + parent.string() + " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(option + " " + file + ": the folder " + parent.string() + " is not writable");
}

}  // namespace stcsim
