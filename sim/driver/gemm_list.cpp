#include "sim/driver/gemm_list.h"

#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/core/utf8.h"

namespace stcsim {

GemmOp parse_gemm(const std::string& text, Dtype dtype, const std::string& where) {
  GemmOp op;
  op.dtype = dtype;
  op.name = text;
  std::int64_t v[3];
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    std::size_t used = 0;
    try {
      if (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos]))) throw 0;
      v[i] = std::stoll(text.substr(pos), &used);
    } catch (...) {
      throw InputError(where +
                       ": expected MxNxK with positive integers (e.g. 4096x4096x4096), got '" +
                       text + "'");
    }
    pos += used;
    if (v[i] <= 0 || v[i] > (std::int64_t(1) << 24))
      throw InputError(where + ": GEMM dimensions must be between 1 and 16777216, got '" + text +
                       "'");
    if (i < 2) {
      if (pos >= text.size() || (text[pos] != 'x' && text[pos] != 'X'))
        throw InputError(where + ": expected MxNxK (e.g. 4096x4096x4096), got '" + text + "'");
      ++pos;
    }
  }
  if (pos != text.size())
    throw InputError(where + ": unexpected '" + text.substr(pos) + "' after MxNxK in '" + text +
                     "'");
  op.m = v[0];
  op.n = v[1];
  op.k = v[2];
  return op;
}

std::vector<GemmOp> read_gemm_trace(const std::string& path, Dtype default_dtype) {
  std::istringstream in(read_input_file(path, "trace file"));
  std::vector<GemmOp> ops;
  std::string line;
  int lineno = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string where = path + ":" + std::to_string(lineno);
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ls(line);
    std::string first;
    if (!(ls >> first)) continue;
    if (!header) {
      std::string ver;
      if (first != "stcsim-trace" || !(ls >> ver))
        throw InputError(where + ": expected the header 'stcsim-trace 0'");
      if (ver != "0")
        throw InputError(where + ": trace version " + ver +
                         " is not supported by this reader (expected 0)");
      header = true;
      continue;
    }
    Dtype dt = default_dtype;
    std::string tok, name;
    if (ls >> tok) {
      dt = [&] {
        try {
          return parse_dtype(tok);
        } catch (const InputError& e) {
          throw InputError(where + ": " + e.what());
        }
      }();
      std::getline(ls >> std::ws, name);
    }
    GemmOp op = parse_gemm(first, dt, where);
    if (invalid_utf8_at(name) != std::string::npos)  // names go into stats.json
      throw InputError(where + ": the op name is not valid UTF-8");
    if (!name.empty()) op.name = name;
    ops.push_back(op);
  }
  if (!header) throw InputError(path + ": empty trace (expected the header 'stcsim-trace 0')");
  if (ops.empty()) throw InputError(path + ": the trace holds no GEMM");
  return ops;
}

std::vector<GemmOp> default_gemms(Dtype dtype) {
  // BERT-base (hidden 768, MLP 3072) with 8 x 512 = 4096 tokens.
  const struct {
    const char* name;
    std::int64_t m, n, k;
  } set[] = {
      {"bert_base.qkv", 4096, 2304, 768},    {"bert_base.attn_out", 4096, 768, 768},
      {"bert_base.mlp_up", 4096, 3072, 768}, {"bert_base.mlp_down", 4096, 768, 3072},
      {"square_4096", 4096, 4096, 4096},
  };
  std::vector<GemmOp> ops;
  for (const auto& s : set) {
    GemmOp op;
    op.name = s.name;
    op.m = s.m;
    op.n = s.n;
    op.k = s.k;
    op.dtype = dtype;
    ops.push_back(op);
  }
  return ops;
}

}  // namespace stcsim
