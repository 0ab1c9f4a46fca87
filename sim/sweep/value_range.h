// Ranges in a sweep spec: `{from: A, to: B, step: S}` (linear) or `{from, to, factor}`
// (geometric), both inclusive of B when it lands on the grid. Integers stay integers so
// that integer parameters accept the generated values.
#pragma once
#include <string>
#include <vector>

namespace stcsim::sweep {

// Throws InputError naming `where` when the range is empty, unbounded or too long.
std::vector<std::string> linear_range(const std::string& from, const std::string& to,
                                      const std::string& step, const std::string& where);
std::vector<std::string> geometric_range(const std::string& from, const std::string& to,
                                         const std::string& factor, const std::string& where);

// The shortest text that reads back as `v` ("0.25", "1e-05", "3").
std::string format_number(double v);

inline constexpr std::size_t kMaxRangeValues = 100000;

}  // namespace stcsim::sweep
