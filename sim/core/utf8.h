// Is a text valid UTF-8? Names from configs and traces end up in stats.json, and JSON
// cannot carry other bytes: checked where they are read, so the error names the file and
// line instead of the JSON writer failing after the whole simulation has run.
#pragma once
#include <cstddef>
#include <string>

namespace stcsim {

// The byte offset of the first byte that does not start or continue a well-formed
// UTF-8 sequence (overlong forms, surrogates and code points above U+10FFFF included),
// or std::string::npos when the whole text is valid.
inline std::size_t invalid_utf8_at(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF)
      n = 1;
    else if (c == 0xE0) {
      n = 2;
      lo = 0xA0;
    } else if (c >= 0xE1 && c <= 0xEC)
      n = 2;
    else if (c == 0xED) {
      n = 2;
      hi = 0x9F;
    } else if (c >= 0xEE && c <= 0xEF)
      n = 2;
    else if (c == 0xF0) {
      n = 3;
      lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3)
      n = 3;
    else if (c == 0xF4) {
      n = 3;
      hi = 0x8F;
    } else
      return i;
    if (i + n >= s.size()) return i;  // the sequence is cut off by the end
    for (int k = 1; k <= n; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += n + 1;
  }
  return std::string::npos;
}

}  // namespace stcsim
