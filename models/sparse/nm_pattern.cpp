#include "models/sparse/nm_pattern.h"

#include <cctype>

#include "sim/core/input_error.h"

namespace stcsim::sparse {

const std::vector<NmPattern>& supported_patterns() {
  static const std::vector<NmPattern> all = {{2, 4}, {1, 4}, {2, 8}, {4, 8}, {1, 2}};
  return all;
}

static std::string supported_list() {
  std::string s;
  for (const auto& p : supported_patterns()) s += (s.empty() ? "" : ", ") + p.str();
  return s;
}

void NmPattern::validate() const {
  for (const auto& p : supported_patterns())
    if (p == *this) return;
  throw InputError("unsupported N:M pattern " + str() + ": supported are " + supported_list());
}

// Parses a non-negative decimal number, skipping spaces around it; false if there is none.
static bool parse_count(const std::string& s, int& out) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  if (b == e || e - b > 6) return false;  // six digits is far past any group size
  int v = 0;
  for (std::size_t i = b; i < e; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

NmPattern NmPattern::parse(const std::string& text) {
  const auto colon = text.find(':');
  NmPattern p{0, 0};
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos ||
      !parse_count(text.substr(0, colon), p.n) || !parse_count(text.substr(colon + 1), p.m))
    throw InputError("invalid N:M pattern '" + text +
                     "': expected two whole numbers separated by ':', e.g. 2:4 (supported: " +
                     supported_list() + ")");
  if (p.n <= 0 || p.n >= p.m)
    throw InputError("invalid N:M pattern '" + text +
                     "': need 0 < N < M (supported: " + supported_list() + ")");
  p.validate();
  return p;
}

}  // namespace stcsim::sparse
