#include "workloads/pruning/prune_spec.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "sim/core/input_error.h"

namespace stcsim::workloads {

namespace {

const char* kGrammar =
    "expected 'dense', 'N:M' (e.g. 2:4) or 'block:RxC@SPARSITY[+N:M][/global|/layer]' "
    "(e.g. block:32x32@0.75, block:4x1@0.9+2:4, block:16x16@0.8/global)";

[[noreturn]] void fail(const std::string& text, const std::string& why) {
  throw InputError("invalid pruning spec '" + text + "': " + why + "; " + kGrammar);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  return true;
}

// "" when `s` is a valid block side (stored in `out`), else the reason it is not.
std::string parse_side(const std::string& s, const char* what, int& out) {
  if (!all_digits(s) || s.size() > 5)
    return std::string("block ") + what + " '" + s + "' is not a whole number";
  out = std::atoi(s.c_str());
  if (out < 1 || out > kMaxBlockSide)
    return std::string("block ") + what + " " + s + " must be between 1 and " +
           std::to_string(kMaxBlockSide);
  return "";
}

// A decimal fraction "0.75", ".9", "0": digits with at most one '.', value in [0, 1).
double parse_fraction(const std::string& text, const std::string& s) {
  int dots = 0, digits = 0;
  for (char ch : s) {
    if (ch == '.')
      ++dots;
    else if (std::isdigit(static_cast<unsigned char>(ch)))
      ++digits;
    else
      fail(text, "sparsity '" + s + "' is not a decimal fraction (e.g. 0.75)");
  }
  if (dots > 1 || digits == 0)
    fail(text, "sparsity '" + s + "' is not a decimal fraction (e.g. 0.75)");
  const double v = std::strtod(s.c_str(), nullptr);
  if (!(v >= 0.0 && v < 1.0)) fail(text, "sparsity " + s + " must be at least 0 and below 1");
  return v;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// "RxC" into p.block_rows / p.block_cols; "" or the reason it is not valid.
std::string parse_dims(const std::string& dims, PruneSpec& p) {
  const auto x = dims.find_first_of("xX");
  if (x == std::string::npos) return "block size '" + dims + "' is not RxC";
  std::string why = parse_side(dims.substr(0, x), "rows", p.block_rows);
  if (why.empty()) why = parse_side(dims.substr(x + 1), "columns", p.block_cols);
  return why;
}

sparse::NmPattern parse_nm(const std::string& text, const std::string& s) {
  try {
    return sparse::NmPattern::parse(s);
  } catch (const InputError& e) {
    fail(text, e.what());
  }
}

}  // namespace

PruneSpec PruneSpec::parse(const std::string& raw) {
  const std::string text = trim(raw);
  PruneSpec p;
  if (text.empty()) fail(raw, "it is empty");
  if (text == "dense") return p;
  const std::string kBlock = "block:";
  if (text.compare(0, kBlock.size(), kBlock) != 0) {
    if (text.find(':') == std::string::npos) fail(raw, "unknown pattern");
    p.kind = Kind::Nm;
    p.nm = parse_nm(raw, text);
    return p;
  }
  p.kind = Kind::Block;
  std::string rest = text.substr(kBlock.size());
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    const std::string scope = rest.substr(slash + 1);
    if (scope == "global")
      p.global = true;
    else if (scope != "layer")
      fail(raw, "scope '/" + scope + "' is not /global or /layer");
    rest.resize(slash);
  }
  if (auto plus = rest.find('+'); plus != std::string::npos) {
    p.inner_nm = true;
    p.nm = parse_nm(raw, rest.substr(plus + 1));
    rest.resize(plus);
  }
  const auto at = rest.find('@');
  if (at == std::string::npos) fail(raw, "the target sparsity is missing ('@0.75')");
  if (const std::string why = parse_dims(rest.substr(0, at), p); !why.empty()) fail(raw, why);
  p.target = parse_fraction(raw, rest.substr(at + 1));
  return p;
}

PruneSpec PruneSpec::parse_label(const std::string& text) {
  const std::string kBlock = "block:";
  PruneSpec p;
  auto bad = [&](const std::string& why) -> InputError {
    return InputError("invalid sparsity '" + text + "': " + why +
                      "; expected dense, N:M (e.g. 2:4), block:RxC or block:RxC+N:M");
  };
  if (text == "dense") return p;
  try {
    if (text.compare(0, kBlock.size(), kBlock) != 0) {
      p.kind = Kind::Nm;
      p.nm = sparse::NmPattern::parse(text);
      if (text.find_first_of(" \t") != std::string::npos) throw bad("spaces are not allowed");
      return p;
    }
    p.kind = Kind::Block;
    std::string rest = text.substr(kBlock.size());
    if (rest.find_first_of("@/") != std::string::npos)
      throw bad("a trace records the pattern only, not a target ('@') or scope ('/')");
    if (auto plus = rest.find('+'); plus != std::string::npos) {
      p.inner_nm = true;
      p.nm = sparse::NmPattern::parse(rest.substr(plus + 1));
      rest.resize(plus);
    }
    if (const std::string why = parse_dims(rest, p); !why.empty()) throw bad(why);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("invalid sparsity", 0) == 0) throw;
    throw bad(what);  // from NmPattern::parse
  }
  return p;
}

std::string PruneSpec::sparsity_label() const {
  switch (kind) {
    case Kind::Dense:
      return "dense";
    case Kind::Nm:
      return nm.str();
    case Kind::Block:
      return "block:" + std::to_string(block_rows) + "x" + std::to_string(block_cols) +
             (inner_nm ? "+" + nm.str() : "");
  }
  return "dense";
}

std::string PruneSpec::str() const {
  if (kind != Kind::Block) return sparsity_label();
  // The shortest text that reads back as the same double.
  char buf[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, target);
    if (std::strtod(buf, nullptr) == target) break;
  }
  std::string s =
      "block:" + std::to_string(block_rows) + "x" + std::to_string(block_cols) + "@" + buf;
  if (inner_nm) s += "+" + nm.str();
  if (global) s += "/global";
  return s;
}

double PruneSpec::nominal_sparsity() const {
  switch (kind) {
    case Kind::Dense:
      return 0.0;
    case Kind::Nm:
      return 1.0 - double(nm.n) / nm.m;
    case Kind::Block:
      return inner_nm ? 1.0 - (1.0 - target) * nm.n / nm.m : target;
  }
  return 0.0;
}

}  // namespace stcsim::workloads
