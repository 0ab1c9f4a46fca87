#include "sim/sweep/value_range.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "sim/core/input_error.h"

namespace stcsim::sweep {

namespace {

bool as_int(const std::string& s, std::int64_t& out) {
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && p == end;
}

double as_number(const std::string& s, const std::string& what, const std::string& where) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
  } catch (...) {
  }
  throw InputError(where + ": range '" + what + "' must be a number, got '" + s + "'");
}

void check_size(std::size_t n, const std::string& where) {
  if (n > kMaxRangeValues)
    throw InputError(where + ": range has more than " + std::to_string(kMaxRangeValues) +
                     " values");
}

}  // namespace

std::string format_number(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, p);
}

std::vector<std::string> linear_range(const std::string& from, const std::string& to,
                                      const std::string& step, const std::string& where) {
  std::vector<std::string> out;
  std::int64_t a, b, s;
  if (as_int(from, a) && as_int(to, b) && as_int(step, s)) {
    if (s <= 0 || b < a) throw InputError(where + ": range needs from <= to and step > 0");
    check_size(std::size_t((b - a) / s) + 1, where);
    for (std::int64_t v = a; v <= b; v += s) out.push_back(std::to_string(v));
    return out;
  }
  const double fa = as_number(from, "from", where), fb = as_number(to, "to", where);
  const double fs = as_number(step, "step", where);
  if (fs <= 0 || fb < fa) throw InputError(where + ": range needs from <= to and step > 0");
  check_size(std::size_t((fb - fa) / fs) + 1, where);
  // Multiply rather than accumulate so that 0.1-steps do not drift past `to`.
  for (std::size_t i = 0;; ++i) {
    const double v = fa + double(i) * fs;
    if (v > fb + 1e-9 * fs) break;
    out.push_back(format_number(v));
  }
  return out;
}

std::vector<std::string> geometric_range(const std::string& from, const std::string& to,
                                         const std::string& factor, const std::string& where) {
  const double fa = as_number(from, "from", where), fb = as_number(to, "to", where);
  const double ff = as_number(factor, "factor", where);
  if (fa <= 0 || fb < fa || ff <= 1)
    throw InputError(where + ": geometric range needs 0 < from <= to and factor > 1");
  std::int64_t ia, ifac;
  const bool ints = as_int(from, ia) && as_int(factor, ifac);
  std::vector<std::string> out;
  for (double v = fa; v <= fb * (1 + 1e-12); v *= ff) {
    out.push_back(ints ? std::to_string(std::llround(v)) : format_number(v));
    check_size(out.size(), where);
  }
  return out;
}

}  // namespace stcsim::sweep
