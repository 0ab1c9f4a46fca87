#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/core/nearest.h"
#include "workloads/loaders/path_inside.h"
#include "workloads/trace/trace.h"
#include "workloads/trace/trace_check.h"

namespace stcsim::workloads {

using namespace trace_detail;

namespace {

const std::vector<std::string> kHeaderKeys = {"model",   "synthetic", "dtype", "ops",
                                              "payload", "source",    "prune", "lowering"};
const std::vector<std::string> kOpKeys = {
    "m",       "n",       "k",        "batch",  "dtype",        "sparsity", "layer",
    "conv",    "causal",  "row_op",   "values", "values_dtype", "metadata", "metadata_format",
    "row_ptr", "col_idx", "panel_nnz"};

std::string suggest(const std::string& key, const std::vector<std::string>& valid) {
  const std::string near = nearest_name(key, valid);
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  return (near.empty() ? "" : " (did you mean '" + near + "'?)") + std::string("; valid: ") + list;
}

// Whole decimal number in [lo, hi]; false otherwise.
bool parse_int(const std::string& s, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  std::int64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + (ch - '0');
  }
  if (v < lo || v > hi) return false;
  out = v;
  return true;
}

std::vector<std::string> split_blanks(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

// The rest of the line after its first word, trimmed.
std::string rest_of_line(const std::string& line, const std::string& key) {
  std::size_t p = line.find(key) + key.size();
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  std::size_t e = line.size();
  while (e > p && (line[e - 1] == ' ' || line[e - 1] == '\t')) --e;
  return line.substr(p, e - p);
}

struct Reader {
  std::string path;
  Trace t;
  std::map<std::string, int> header_line;  // key -> line
  std::map<std::string, int> op_line;      // name -> line
  std::int64_t declared_ops = -1;

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(path + ":" + std::to_string(line) + ": " + what);
  }

  void header(const std::vector<std::string>& tok, const std::string& line, int ln) {
    const std::string& key = tok[0];
    if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end())
      fail(ln, "unknown key '" + key + "'" + suggest(key, [] {
                 auto v = kHeaderKeys;
                 v.push_back("op");
                 return v;
               }()));
    if (!t.ops.empty()) fail(ln, "header line '" + key + "' must come before the first op");
    if (auto it = header_line.find(key); it != header_line.end())
      fail(ln, "'" + key + "' is given twice (first at line " + std::to_string(it->second) + ")");
    header_line[key] = ln;
    const std::string rest = rest_of_line(line, key);
    auto one_word = [&]() -> const std::string& {
      if (tok.size() != 2)
        fail(ln, "expected '" + key + " <value>' (one word), got '" + line + "'");
      return tok[1];
    };
    if (key == "model") {
      t.model = one_word();
    } else if (key == "synthetic") {
      const std::string& v = one_word();
      if (v != "true" && v != "false") fail(ln, "synthetic must be true or false, got '" + v + "'");
      t.synthetic = v == "true";
    } else if (key == "dtype") {
      const std::string& v = one_word();
      if (!is_dtype(v)) fail(ln, "unknown dtype '" + v + "' (expected " + dtype_list() + ")");
      t.dtype = v;
    } else if (key == "ops") {
      if (!parse_int(one_word(), 0, std::int64_t(1) << 30, declared_ops))
        fail(ln, "ops must be a whole number of op lines, got '" + tok[1] + "'");
    } else if (key == "payload") {
      if (tok.size() < 3) fail(ln, "expected 'payload <file> <bytes>'");
      if (!parse_int(tok.back(), 0, std::int64_t(1) << 50, t.payload_bytes))
        fail(ln, "payload size must be a whole number of bytes, got '" + tok.back() + "'");
      t.payload_file = rest.substr(0, rest.size() - tok.back().size());
      while (!t.payload_file.empty() &&
             (t.payload_file.back() == ' ' || t.payload_file.back() == '\t'))
        t.payload_file.pop_back();
    } else {
      if (rest.empty()) fail(ln, "'" + key + "' needs a text after it");
      (key == "source" ? t.source : key == "prune" ? t.prune : t.lowering) = rest;
    }
  }

  static bool parse_ref(const std::string& v, PayloadRef& r) {
    const auto c = v.find(':');
    if (c == std::string::npos) return false;
    return parse_int(v.substr(0, c), 0, std::int64_t(1) << 50, r.offset) &&
           parse_int(v.substr(c + 1), 0, std::int64_t(1) << 50, r.bytes);
  }

  void op(const std::vector<std::string>& tok, int ln) {
    if (tok.size() < 2 || tok[1].find('=') != std::string::npos)
      fail(ln, "expected 'op <name> m=<M> n=<N> k=<K> ...'");
    TraceOp o;
    o.name = tok[1];
    o.line = ln;
    o.dtype = t.dtype;
    if (auto it = op_line.find(o.name); it != op_line.end())
      fail(ln, "op name '" + o.name + "' is used twice (first at line " +
                   std::to_string(it->second) + ")");
    op_line[o.name] = ln;
    std::map<std::string, std::string> kv;
    for (std::size_t i = 2; i < tok.size(); ++i) {
      const auto eq = tok[i].find('=');
      if (eq == std::string::npos || eq == 0) fail(ln, "expected key=value, got '" + tok[i] + "'");
      const std::string key = tok[i].substr(0, eq), val = tok[i].substr(eq + 1);
      if (std::find(kOpKeys.begin(), kOpKeys.end(), key) == kOpKeys.end())
        fail(ln, "op '" + o.name + "': unknown key '" + key + "'" + suggest(key, kOpKeys));
      if (val.empty()) fail(ln, "op '" + o.name + "': '" + key + "' has no value");
      if (!kv.emplace(key, val).second)
        fail(ln, "op '" + o.name + "': '" + key + "' is given twice");
    }
    auto number = [&](const char* key, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
      auto it = kv.find(key);
      if (it == kv.end()) return false;
      if (!parse_int(it->second, lo, hi, out))
        fail(ln, "op '" + o.name + "': " + key + " must be a whole number from " +
                     std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + it->second +
                     "'");
      return true;
    };
    for (auto [key, dst] : {std::pair{"m", &o.m}, {"n", &o.n}, {"k", &o.k}})
      if (!number(key, 1, kMaxDim, *dst))
        fail(ln, "op '" + o.name + "': missing " + key + "=<positive integer>");
    std::int64_t batch = 1;
    number("batch", 1, 0x7FFFFFFF, batch);
    o.batch = int(batch);
    if (auto it = kv.find("dtype"); it != kv.end()) o.dtype = it->second;
    if (auto it = kv.find("sparsity"); it != kv.end()) o.sparsity = it->second;
    if (auto it = kv.find("layer"); it != kv.end()) o.layer = it->second;
    if (auto it = kv.find("causal"); it != kv.end()) o.causal = it->second;
    if (auto it = kv.find("row_op"); it != kv.end()) o.row_op = it->second;
    if (auto it = kv.find("conv"); it != kv.end()) {
      try {
        o.conv = parse_conv(it->second, o.m, o.k);
      } catch (const InputError& e) {
        fail(ln, "op '" + o.name + "': " + e.what());
      }
    }
    auto ref = [&](const char* key, PayloadRef& r) {
      auto it = kv.find(key);
      if (it == kv.end()) return;
      if (!parse_ref(it->second, r))
        fail(ln, "op '" + o.name + "': " + key +
                     " must be <offset>:<bytes> (whole numbers), got '" + it->second + "'");
    };
    ref("values", o.values_ref);
    ref("metadata", o.metadata_ref);
    ref("row_ptr", o.row_ptr_ref);
    ref("col_idx", o.col_idx_ref);
    ref("panel_nnz", o.panel_nnz_ref);
    auto paired = [&](const char* a, const char* b) {
      if (kv.count(a) != kv.count(b))
        fail(ln, "op '" + o.name + "': " + a + "= and " + b + "= go together");
    };
    paired("values", "values_dtype");
    paired("metadata", "metadata_format");
    paired("row_ptr", "col_idx");
    paired("row_ptr", "panel_nnz");
    if (auto it = kv.find("values_dtype"); it != kv.end()) {
      if (!value_bytes(it->second))
        fail(ln,
             "op '" + o.name + "': values_dtype must be fp16 or fp32, got '" + it->second + "'");
      o.values_dtype = it->second;
    }
    if (auto it = kv.find("metadata_format"); it != kv.end()) {
      if (!metadata_bytes(it->second))
        fail(ln, "op '" + o.name + "': metadata_format must be ptx16 or index8, got '" +
                     it->second + "'");
      o.metadata_format = it->second;
    }
    t.ops.push_back(std::move(o));
  }
};

// Reads `r` of the payload as little-endian elements of `bytes` bytes.
template <typename T>
std::vector<T> decode(const std::vector<std::uint8_t>& buf, const PayloadRef& r, int bytes) {
  std::vector<T> v(std::size_t(r.bytes / bytes));
  const std::uint8_t* p = buf.data() + r.offset;
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint32_t u = 0;
    for (int b = 0; b < bytes; ++b) u |= std::uint32_t(p[i * bytes + b]) << (8 * b);
    v[i] = static_cast<T>(u);
  }
  return v;
}

}  // namespace

Trace read_trace(const std::string& path) {
  std::istringstream in(read_input_file(path, "trace file"));
  Reader rd;
  rd.path = path;
  std::string line;
  int ln = 0;
  bool have_version = false;
  while (std::getline(in, line)) {
    ++ln;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto tok = split_blanks(line);
    if (tok.empty() || tok[0][0] == '#') continue;
    if (!have_version) {
      if (tok[0] != "stcsim-trace" || tok.size() != 2)
        rd.fail(ln, "expected the header 'stcsim-trace " + std::to_string(kTraceVersion) +
                        "', got '" + line + "'");
      if (tok[1] != std::to_string(kTraceVersion))
        rd.fail(ln, "trace version '" + tok[1] +
                        "' is not supported by this reader (it reads version " +
                        std::to_string(kTraceVersion) + ")");
      have_version = true;
      continue;
    }
    if (tok[0] == "op")
      rd.op(tok, ln);
    else
      rd.header(tok, line, ln);
  }
  if (!have_version)
    throw InputError(path + ": empty trace (expected the header 'stcsim-trace " +
                     std::to_string(kTraceVersion) + "')");
  for (const char* key : {"model", "synthetic", "dtype", "ops"})
    if (!rd.header_line.count(key))
      throw InputError(path + ": missing header line '" + key + "' (before the first op)");
  Trace& t = rd.t;
  if (rd.declared_ops != std::int64_t(t.ops.size()))
    throw InputError(path + ": the header declares " + std::to_string(rd.declared_ops) +
                     " ops (line " + std::to_string(rd.header_line["ops"]) +
                     ") but the file holds " + std::to_string(t.ops.size()) + " (truncated?)");

  // Payload: the whole file, its size as declared.
  std::vector<std::uint8_t> buf;
  std::string bin_path;
  if (!t.payload_file.empty()) {
    const std::string at = path + ":" + std::to_string(rd.header_line["payload"]);
    const std::string dir = std::filesystem::path(path).parent_path().string();
    // The payload lives beside the trace (the writer names it so): a path leading out of
    // the trace's folder, a directory or a device is refused before anything is read,
    // and the declared size is checked against the file's real size first.
    path_inside(dir, t.payload_file, at, "payload file");
    bin_path = (std::filesystem::path(dir) / t.payload_file).string();
    std::uint64_t size = 0;
    try {
      size = regular_file_size(bin_path, "payload file");
    } catch (const InputError& e) {
      throw InputError(at + ": cannot open the payload file " + bin_path + " (" + e.what() + ")");
    }
    if (std::int64_t(size) != t.payload_bytes)
      throw InputError(bin_path + ": payload is " + std::to_string(size) + " bytes, the trace (" +
                       at + ") says " + std::to_string(t.payload_bytes));
    const std::string bytes = read_input_file(bin_path, "payload file");
    buf.assign(bytes.begin(), bytes.end());
    if (std::int64_t(buf.size()) != t.payload_bytes)
      throw InputError(bin_path + ": payload is " + std::to_string(buf.size()) +
                       " bytes, the trace (" + at + ") says " + std::to_string(t.payload_bytes));
  }
  for (auto& op : t.ops) {
    const std::string at = path + ":" + std::to_string(op.line);
    const std::string where_op = at + ": op '" + op.name + "'";
    const OpShape s = check_op_fields(op, where_op);
    auto load = [&](const char* array, const PayloadRef& r, int bytes, auto& dst) {
      if (!r.present()) return;
      if (bin_path.empty())
        throw InputError(where_op + ": " + array +
                         "= refers to a payload, but the header has no 'payload' line");
      if (r.offset + r.bytes > std::int64_t(buf.size()))
        throw InputError(where_op + ": " + array + "=" + std::to_string(r.offset) + ":" +
                         std::to_string(r.bytes) + " runs past the end of " + bin_path + " (" +
                         std::to_string(buf.size()) + " bytes)");
      if (r.bytes % bytes)
        throw InputError(where_op + ": " + array + " length " + std::to_string(r.bytes) +
                         " bytes is not a whole number of " + std::to_string(bytes) +
                         "-byte elements");
      dst = decode<typename std::decay_t<decltype(dst)>::value_type>(buf, r, bytes);
    };
    load("values", op.values_ref, value_bytes(op.values_dtype), op.values);
    load("metadata", op.metadata_ref, metadata_bytes(op.metadata_format), op.metadata);
    load("row_ptr", op.row_ptr_ref, 4, op.row_ptr);
    load("col_idx", op.col_idx_ref, 4, op.col_idx);
    load("panel_nnz", op.panel_nnz_ref, 4, op.panel_nnz);
    if (op.row_ptr_ref.present() && op.row_ptr.empty())
      throw InputError(where_op + ": row_ptr is empty (it needs one entry per panel plus one)");
    check_payload(op, s, where_op, [&](const char* array, std::int64_t e) {
      const std::string a = array;
      const PayloadRef& r = a == "values"     ? op.values_ref
                            : a == "metadata" ? op.metadata_ref
                            : a == "row_ptr"  ? op.row_ptr_ref
                            : a == "col_idx"  ? op.col_idx_ref
                                              : op.panel_nnz_ref;
      const int bytes = a == "values"     ? value_bytes(op.values_dtype)
                        : a == "metadata" ? metadata_bytes(op.metadata_format)
                                          : 4;
      const std::string ref = std::to_string(r.offset) + ":" + std::to_string(r.bytes);
      if (e < 0) return where_op + " " + a + "=" + ref;
      return bin_path + " byte " + std::to_string(r.offset + e * bytes) + ": op '" + op.name +
             "' " + a + "[" + std::to_string(e) + "] (" + at + ")";
    });
  }
  return t;
}

}  // namespace stcsim::workloads
