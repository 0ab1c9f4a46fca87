// Nearest-name lookup used by every "unknown key / unknown name" error.
#pragma once
#include <string>
#include <vector>

namespace stcsim {

std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `name` by edit distance; empty when there are none.
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace stcsim
