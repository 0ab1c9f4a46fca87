#include "workloads/loaders/path_inside.h"

#include <filesystem>
#include <system_error>

#include "sim/core/input_error.h"

namespace stcsim::workloads {

std::string path_inside(const std::string& dir, const std::string& name,
                        const std::string& named_by, const std::string& what) {
  namespace fs = std::filesystem;
  const auto refuse = [&](const std::string& why) {
    throw InputError(named_by + ": " + what + " '" + name + "' " + why +
                     "; only files inside the folder " + dir + " are read");
  };
  if (name.empty()) refuse("is empty");
  if (name.find('\0') != std::string::npos) refuse("contains a NUL byte");
  if (fs::path(name).is_absolute()) refuse("is an absolute path");
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(dir.empty() ? fs::path(".") : fs::path(dir), ec);
  if (ec) refuse("cannot be resolved (" + ec.message() + ")");
  const fs::path target = fs::weakly_canonical(root / name, ec);
  if (ec) refuse("cannot be resolved (" + ec.message() + ")");
  // Inside means: the resolved path is `root` followed by at least one more component.
  auto r = root.begin(), t = target.begin();
  for (; r != root.end(); ++r, ++t)
    if (t == target.end() || *r != *t) refuse("resolves to " + target.string() + ", outside");
  if (t == target.end()) refuse("names the folder itself");
  return target.string();
}

}  // namespace stcsim::workloads
