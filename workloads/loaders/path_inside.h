// Paths that a model file, a weights manifest or a trace names are resolved inside the
// folder of the file that names them: a hostile model.json listing "../../dev/zero" or
// an absolute path, or a shard that is a symlink leading out, is refused by name instead
// of being read.
#pragma once
#include <string>

namespace stcsim::workloads {

// `dir`/`name` resolved through symlinks (as far as they exist), when it stays inside
// `dir`; otherwise InputError "NAMED_BY: WHAT 'NAME' resolves to PATH, outside the
// model's folder DIR". `named_by` is where the path was read ("model.json: byte 210").
std::string path_inside(const std::string& dir, const std::string& name,
                        const std::string& named_by, const std::string& what);

}  // namespace stcsim::workloads
