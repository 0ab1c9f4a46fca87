// The one number syntax of stcsim, for configs, -p overrides, sweep specs and numeric
// options alike (README "Numbers"): decimal only. Integers are [+-]digits; decimals are
// [+-]digits[.digits][e[+-]digits] (or .digits). Not accepted, so that no number is read
// two ways: leading zeros ("010" was octal 8 in one place and an error in another), hex,
// inf, nan, and values a double cannot hold (1e999 overflows, 1e-320 underflows).
#pragma once
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

namespace stcsim {

// Why `text` is not a decimal number of the syntax above ("" when it is).
inline std::string decimal_syntax_error(const std::string& text, bool integer) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::size_t int_start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  const std::size_t int_digits = i - int_start;
  std::size_t frac_digits = 0;
  if (!integer && i < text.size() && text[i] == '.') {
    ++i;
    const std::size_t f = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    frac_digits = i - f;
  }
  if (int_digits + frac_digits == 0)
    return integer ? "expected a decimal integer" : "expected a decimal number";
  if (!integer && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t e = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == e) return "expected digits after the exponent";
  }
  if (i != text.size()) return integer ? "expected a decimal integer" : "expected a decimal number";
  if (int_digits > 1 && text[int_start] == '0')
    return "leading zeros are not allowed (numbers are decimal)";
  return "";
}

// Decimal integer in [lo, hi]; "" or the reason it is not one.
inline std::string parse_decimal_int(const std::string& text, std::int64_t& out,
                                     std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                                     std::int64_t hi = std::numeric_limits<std::int64_t>::max()) {
  if (std::string why = decimal_syntax_error(text, true); !why.empty()) return why;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || v < lo || v > hi)
    return "out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  out = v;
  return "";
}

// Finite decimal number; "" or the reason it is not one.
inline std::string parse_decimal_double(const std::string& text, double& out) {
  if (std::string why = decimal_syntax_error(text, false); !why.empty()) return why;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || !std::isfinite(v))
    return "beyond the range of a double (overflow or underflow)";
  out = v;
  return "";
}

}  // namespace stcsim
