#include "workloads/loaders/npy_header.h"

#include <cctype>

#include "workloads/loaders/byte_reader.h"

namespace stcsim::workloads {
namespace {

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), }. This parses exactly that subset, reporting file offsets.
class HeaderParser {
 public:
  HeaderParser(std::string text, const std::string& file, std::uint64_t base)
      : t_(std::move(text)), file_(file), base_(base) {}

  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;

  void parse() {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    ws();
    expect('{', "'{' opening the header dict");
    for (;;) {
      ws();
      if (peek() == '}') {
        ++i_;
        break;
      }
      const std::uint64_t key_at = pos();
      const std::string key = quoted();
      ws();
      expect(':', "':' after the key");
      ws();
      if (key == "descr") {
        descr = quoted();
        seen_descr = true;
      } else if (key == "fortran_order") {
        fortran_order = boolean();
        seen_order = true;
      } else if (key == "shape") {
        shape = tuple();
        seen_shape = true;
      } else
        throw_at(file_, key_at,
                 "unexpected header key '" + key + "' (expected descr, fortran_order, shape)");
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() == '}') {
        ++i_;
        break;
      }
      fail("',' or '}' in the header dict");
    }
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n')) ++i_;
    if (i_ != t_.size()) fail("only spaces and a newline after the header dict");
    if (!seen_descr || !seen_order || !seen_shape)
      throw_at(file_, base_, "header dict needs the keys descr, fortran_order and shape");
  }

 private:
  std::uint64_t pos() const { return base_ + i_; }
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  [[noreturn]] void fail(const std::string& expected) const {
    throw_at(file_, pos(), "expected " + expected);
  }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
  }
  void expect(char c, const char* what) {
    if (peek() != c) fail(what);
    ++i_;
  }
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("a quoted string");
    const std::size_t start = ++i_;
    while (i_ < t_.size() && t_[i_] != q) ++i_;
    if (i_ == t_.size()) fail("the closing quote");
    return t_.substr(start, i_++ - start);
  }
  bool boolean() {
    if (t_.compare(i_, 4, "True") == 0) {
      i_ += 4;
      return true;
    }
    if (t_.compare(i_, 5, "False") == 0) {
      i_ += 5;
      return false;
    }
    fail("True or False");
  }
  std::vector<std::int64_t> tuple() {
    std::vector<std::int64_t> dims;
    expect('(', "'(' opening the shape tuple");
    for (;;) {
      ws();
      if (peek() == ')') {
        ++i_;
        return dims;
      }
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("a dimension (digits) or ')'");
      std::int64_t d = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (d > (std::int64_t{1} << 50)) fail("a dimension below 2^50");
        d = d * 10 + (t_[i_++] - '0');
      }
      if (peek() == 'L') ++i_;  // Python 2 longs
      dims.push_back(d);
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() != ')') fail("',' or ')' in the shape tuple");
    }
  }

  const std::string t_;  // owned: callers pass temporaries
  const std::string& file_;
  std::uint64_t base_;
  std::size_t i_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(std::string text, const std::string& file, std::uint64_t base) {
  HeaderParser p(std::move(text), file, base);
  p.parse();
  return NpyHeader{p.descr, p.fortran_order, p.shape};
}

}  // namespace stcsim::workloads
