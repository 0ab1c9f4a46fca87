// Numeric command-line options, read with the one number syntax (sim/core/number_syntax.h)
// and checked against their range, each error naming the option: CLI11's own conversions
// let `--seed -1` wrap, `--unstructured nan` pass its range check and `--batch -5` through.
#pragma once
#include <cstdint>
#include <cstdio>
#include <limits>
#include <regex>
#include <string>

#include "models/gpu/l2_policy.h"
#include "sim/core/input_error.h"
#include "sim/core/number_syntax.h"

namespace stcsim {

inline std::int64_t int_option(const std::string& option, const std::string& text, std::int64_t lo,
                               std::int64_t hi) {
  std::int64_t v = 0;
  if (const std::string why = parse_decimal_int(text, v, lo, hi); !why.empty())
    throw InputError(option + ": expected a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got '" + text + "' (" + why + ")");
  return v;
}

inline double fraction_option(const std::string& option, const std::string& text) {
  double v = 0;
  const std::string why = parse_decimal_double(text, v);
  if (!why.empty() || v < 0 || v > 1)
    throw InputError(option + ": expected a decimal number from 0 to 1, got '" + text + "'" +
                     (why.empty() ? "" : " (" + why + ")"));
  return v;
}

// A finite decimal number of at least `lo` (inclusive) or above it (exclusive).
inline double number_at_least(const std::string& option, const std::string& text, double lo,
                              bool inclusive) {
  double v = 0;
  const std::string why = parse_decimal_double(text, v);
  if (!why.empty() || !(inclusive ? v >= lo : v > lo)) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%g", lo);
    throw InputError(option + ": expected a decimal number " +
                     (inclusive ? "of at least " : "above ") + bound + ", got '" + text + "'" +
                     (why.empty() ? "" : " (" + why + ")"));
  }
  return v;
}

// A path option that was given must name something.
inline const std::string& path_option(const std::string& option, const std::string& text) {
  if (text.empty()) throw InputError(option + ": expected a path, got an empty string");
  return text;
}

// "8G", "512M", "1073741824": bytes, with an optional binary K/M/G/T suffix.
inline std::uint64_t memory_option(const std::string& option, const std::string& text) {
  std::string digits = text;
  int shift = 0;
  if (!digits.empty()) {
    const char u = digits.back();
    shift = u == 'K' || u == 'k'   ? 10
            : u == 'M' || u == 'm' ? 20
            : u == 'G' || u == 'g' ? 30
            : u == 'T' || u == 't' ? 40
                                   : 0;
    if (shift) digits.pop_back();
  }
  std::int64_t v = 0;
  const std::int64_t hi = std::numeric_limits<std::int64_t>::max() >> shift;
  if (!parse_decimal_int(digits, v, 1, hi).empty())
    throw InputError(option +
                     ": expected a size in bytes, optionally with K, M, G or T (e.g. 16G), got '" +
                     text + "'");
  return std::uint64_t(v) << shift;
}

// A regular expression (ECMAScript, as std::regex reads it), checked here so that the
// error names the option.
inline const std::string& regex_option(const std::string& option, const std::string& text) {
  try {
    std::regex re(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(option + ": expected a regular expression (ECMAScript), got '" + text + "' (" +
                     e.what() + ")");
  }
  return text;
}

// --l2 flush|warm|repeat (models/gpu/l2_policy.h).
inline L2Policy l2_policy_option(const std::string& option, const std::string& text) {
  if (const auto p = l2_policy_named(text)) return *p;
  throw InputError(option + ": expected " + kL2PolicyNames + ", got '" + text + "'");
}

inline constexpr std::int64_t kMaxSeed = std::numeric_limits<std::int64_t>::max();

}  // namespace stcsim
