#include "sim/sweep/value_range.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "sim/core/input_error.h"
#include "sim/core/number_syntax.h"

namespace stcsim::sweep {

namespace {

// The one number syntax (sim/core/number_syntax.h), as everywhere else.
bool as_int(const std::string& s, std::int64_t& out) { return parse_decimal_int(s, out).empty(); }

double as_number(const std::string& s, const std::string& what, const std::string& where) {
  double v = 0;
  const std::string why = parse_decimal_double(s, v);
  if (why.empty()) return v;
  throw InputError(where + ": range '" + what + "' must be a number, got '" + s + "': " + why);
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
    // b - a overflows int64 for ranges spanning both ends of it: count in unsigned.
    const std::uint64_t span = std::uint64_t(b) - std::uint64_t(a);
    if (span / std::uint64_t(s) >= kMaxRangeValues)
      check_size(kMaxRangeValues + 1, where);  // +1 could wrap
    // Count rather than step v past `to`: v + s may overflow near the int64 limit.
    for (std::uint64_t i = 0, n = span / std::uint64_t(s); i <= n; ++i)
      out.push_back(std::to_string(std::int64_t(std::uint64_t(a) + i * std::uint64_t(s))));
    return out;
  }
  const double fa = as_number(from, "from", where), fb = as_number(to, "to", where);
  const double fs = as_number(step, "step", where);
  if (fs <= 0 || fb < fa) throw InputError(where + ": range needs from <= to and step > 0");
  // Compare as a double before any conversion: (fb - fa) / fs can be inf or beyond
  // size_t, whose cast is undefined behaviour.
  const double count = (fb - fa) / fs + 1;
  if (!(count <= double(kMaxRangeValues))) check_size(kMaxRangeValues + 1, where);
  // Multiply rather than accumulate so that 0.1-steps do not drift past `to`.
  for (std::size_t i = 0;; ++i) {
    const double v = fa + double(i) * fs;
    if (v > fb + 1e-9 * fs) break;
    out.push_back(format_number(v));
    check_size(out.size(), where);  // a step lost in from's rounding never passes `to`
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
    // llround of a value beyond int64 is undefined: such a value is not an integer range.
    if (ints && !(v < 9.2e18))
      throw InputError(where + ": geometric range passes the largest integer (9.2e18)");
    out.push_back(ints ? std::to_string(std::llround(v)) : format_number(v));
    check_size(out.size(), where);
  }
  return out;
}

}  // namespace stcsim::sweep
