#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/core/input_error.h"
#include "workloads/trace/trace.h"
#include "workloads/trace/trace_check.h"

namespace stcsim::workloads {

using namespace trace_detail;

namespace {

constexpr std::int64_t kAlign = 16;

std::string ref_text(const PayloadRef& r) {
  return std::to_string(r.offset) + ":" + std::to_string(r.bytes);
}

void check_free_text(const std::string& s, const char* key) {
  if (s.find_first_of("\r\n") != std::string::npos)
    throw InputError(std::string("trace header '") + key + "' must be one line");
}

// Appends `v` as little-endian elements of `bytes` bytes, 16-byte aligned; returns its ref.
template <typename T>
PayloadRef append(std::vector<std::uint8_t>& buf, const std::vector<T>& v, int bytes) {
  while (std::int64_t(buf.size()) % kAlign) buf.push_back(0);
  PayloadRef r{std::int64_t(buf.size()), std::int64_t(v.size()) * bytes};
  for (T x : v) {
    const auto u = static_cast<std::uint32_t>(x);
    for (int b = 0; b < bytes; ++b) buf.push_back(std::uint8_t(u >> (8 * b)));
  }
  return r;
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::error_code ec;
    std::filesystem::remove(p, ec);  // no partial temporary left behind
    throw InputError(p.string() + ": cannot write");
  }
}

}  // namespace

void validate_trace(const Trace& t, const std::string& where_file) {
  const std::string w = where_file.empty() ? "trace" : where_file;
  if (t.version != kTraceVersion)
    throw InputError(w + ": version " + std::to_string(t.version) + " (this writer writes " +
                     std::to_string(kTraceVersion) + ")");
  if (!is_token(t.model)) throw InputError(w + ": model name '" + t.model + "' must be one word");
  if (!is_dtype(t.dtype))
    throw InputError(w + ": unknown dtype '" + t.dtype + "' (expected " + dtype_list() + ")");
  check_free_text(t.source, "source");
  check_free_text(t.prune, "prune");
  check_free_text(t.lowering, "lowering");
  std::set<std::string> names;
  for (const auto& op : t.ops) {
    const std::string where_op = w + ": op '" + op.name + "'";
    const OpShape s = check_op_fields(op, where_op);
    if (!names.insert(op.name).second) throw InputError(where_op + ": the name is used twice");
    check_payload(op, s, where_op, [&](const char* array, std::int64_t e) {
      return where_op + " " + array + (e >= 0 ? "[" + std::to_string(e) + "]" : std::string());
    });
  }
}

Trace write_trace(const std::string& path, const Trace& trace) {
  validate_trace(trace, path);
  Trace out = trace;
  std::vector<std::uint8_t> payload;
  for (auto& op : out.ops) {
    op.values_ref = op.metadata_ref = op.row_ptr_ref = op.col_idx_ref = op.panel_nnz_ref = {};
    if (!op.values_dtype.empty())
      op.values_ref = append(payload, op.values, value_bytes(op.values_dtype));
    if (!op.metadata_format.empty())
      op.metadata_ref = append(payload, op.metadata, metadata_bytes(op.metadata_format));
    if (op.has_block_map()) {
      op.row_ptr_ref = append(payload, op.row_ptr, 4);
      op.col_idx_ref = append(payload, op.col_idx, 4);
      op.panel_nnz_ref = append(payload, op.panel_nnz, 4);
    }
  }
  const std::filesystem::path trace_path(path);
  out.payload_file.clear();
  out.payload_bytes = 0;
  bool any_ref = false;
  for (const auto& op : out.ops)
    any_ref =
        any_ref || op.values_ref.present() || op.metadata_ref.present() || op.row_ptr_ref.present();
  if (any_ref) {
    out.payload_file = trace_path.filename().string() + ".bin";
    out.payload_bytes = std::int64_t(payload.size());
  }

  std::ostringstream s;
  int line = 0;
  auto put = [&](const std::string& l) {
    s << l << '\n';
    ++line;
  };
  put("stcsim-trace " + std::to_string(kTraceVersion));
  put("model " + out.model);
  put(std::string("synthetic ") + (out.synthetic ? "true" : "false"));
  put("dtype " + out.dtype);
  put("ops " + std::to_string(out.ops.size()));
  if (any_ref) put("payload " + out.payload_file + " " + std::to_string(out.payload_bytes));
  if (!out.source.empty()) put("source " + out.source);
  if (!out.prune.empty()) put("prune " + out.prune);
  if (!out.lowering.empty()) put("lowering " + out.lowering);
  put("# op <name> m= n= k= batch= dtype= sparsity= [layer=] [conv=] [causal=] [row_op=] [payload "
      "refs "
      "offset:bytes]");
  for (auto& op : out.ops) {
    std::string l = "op " + op.name + " m=" + std::to_string(op.m) + " n=" + std::to_string(op.n) +
                    " k=" + std::to_string(op.k) + " batch=" + std::to_string(op.batch) +
                    " dtype=" + op.dtype + " sparsity=" + op.sparsity;
    if (!op.layer.empty()) l += " layer=" + op.layer;
    if (op.conv.present()) l += " conv=" + conv_text(op.conv);
    if (!op.causal.empty()) l += " causal=" + op.causal;
    if (!op.row_op.empty()) l += " row_op=" + op.row_op;
    if (op.values_ref.present())
      l += " values=" + ref_text(op.values_ref) + " values_dtype=" + op.values_dtype;
    if (op.metadata_ref.present())
      l += " metadata=" + ref_text(op.metadata_ref) + " metadata_format=" + op.metadata_format;
    if (op.row_ptr_ref.present())
      l += " row_ptr=" + ref_text(op.row_ptr_ref) + " col_idx=" + ref_text(op.col_idx_ref) +
           " panel_nnz=" + ref_text(op.panel_nnz_ref);
    put(l);
    op.line = line;
  }

  // Write beside the targets, then rename, so a failed run leaves no half-written trace.
  const std::filesystem::path tmp_trace = trace_path.string() + ".tmp";
  const std::filesystem::path bin = trace_path.string() + ".bin";
  const std::filesystem::path tmp_bin = bin.string() + ".tmp";
  if (any_ref) {
    std::ofstream pb(tmp_bin, std::ios::binary | std::ios::trunc);
    pb.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size()));
    pb.close();
    if (!pb) {
      std::error_code ec;
      std::filesystem::remove(tmp_bin, ec);
      throw InputError(tmp_bin.string() + ": cannot write the trace payload");
    }
  }
  write_file(tmp_trace, s.str());
  std::error_code ec;
  if (any_ref) std::filesystem::rename(tmp_bin, bin, ec);
  if (!ec) std::filesystem::rename(tmp_trace, trace_path, ec);
  if (ec) throw InputError(path + ": cannot write the trace (" + ec.message() + ")");
  return out;
}

}  // namespace stcsim::workloads
