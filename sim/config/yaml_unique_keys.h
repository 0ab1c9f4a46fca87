// Duplicate keys in a YAML mapping are an error: yaml-cpp keeps both and a lookup sees
// one of them, so a design file that set `l2:` twice silently lost one section. Checked
// over the whole document right after it is loaded, naming both lines.
#pragma once
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>

#include "sim/core/input_error.h"

namespace stcsim {

// Throws InputError "FILE:LINE: key 'K' is given twice (first at line L)". Recursion is
// bounded by yaml-cpp's own nesting limit, which the load has already enforced.
inline void check_unique_keys(const YAML::Node& node, const std::string& file) {
  if (node.IsSequence()) {
    for (const auto& item : node) check_unique_keys(item, file);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> first_line;
  for (const auto& kv : node) {
    const int line = kv.first.Mark().line + 1;
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "(a non-scalar key)";
    const auto [it, fresh] = first_line.emplace(key, line);
    if (!fresh)
      throw InputError(file + ":" + std::to_string(line) + ": key '" + key +
                       "' is given twice (first at line " + std::to_string(it->second) + ")");
    check_unique_keys(kv.second, file);
  }
}

}  // namespace stcsim
