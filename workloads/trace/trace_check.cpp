#include "workloads/trace/trace_check.h"

#include <cstdio>
#include <limits>

#include "models/common/row_op.h"
#include "models/sparse/metadata.h"
#include "sim/core/input_error.h"
#include "sim/core/utf8.h"

namespace stcsim::workloads::trace_detail {

namespace {

std::string n2s(std::int64_t v) { return std::to_string(v); }

}  // namespace

// The names of models/common/dtype.h (to_string of each Dtype), which this library does not
// link; tests/workloads checks that the two lists agree.
bool is_dtype(const std::string& s) {
  return s == "fp16" || s == "bf16" || s == "tf32" || s == "int8" || s == "fp8_e4m3" ||
         s == "fp8_e5m2";
}
const char* dtype_list() { return "fp16|bf16|tf32|int8|fp8_e4m3|fp8_e5m2"; }

int value_bytes(const std::string& d) { return d == "fp16" ? 2 : d == "fp32" ? 4 : 0; }
int metadata_bytes(const std::string& f) { return f == "ptx16" ? 2 : f == "index8" ? 1 : 0; }

bool is_token(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s)
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '=' || ch == '#') return false;
  return true;
}

OpShape check_op_fields(const TraceOp& op, const std::string& where) {
  if (!is_token(op.name))
    throw InputError(where + ": op name '" + op.name + "' must be one word without '=' or '#'");
  if (!op.layer.empty() && !is_token(op.layer))
    throw InputError(where + ": layer name '" + op.layer + "' must be one word without '=' or '#'");
  // Names go into stats.json, which holds only UTF-8.
  for (auto [text, what] : {std::pair{&op.name, "op name"}, {&op.layer, "layer name"}})
    if (const std::size_t bad = invalid_utf8_at(*text); bad != std::string::npos)
      throw InputError(where + ": " + what + " is not valid UTF-8 (byte " + n2s(std::int64_t(bad)) +
                       " of the name)");
  for (auto [v, key] : {std::pair{op.m, "m"}, {op.n, "n"}, {op.k, "k"}})
    if (v < 1 || v > kMaxDim)
      throw InputError(where + ": " + key + " = " + n2s(v) + " must be between 1 and " +
                       n2s(kMaxDim));
  if (op.batch < 1) throw InputError(where + ": batch = " + n2s(op.batch) + " must be at least 1");
  if (!is_dtype(op.dtype))
    throw InputError(where + ": unknown dtype '" + op.dtype + "' (expected " + dtype_list() + ")");
  if (op.conv.present()) {
    ConvShape again;
    try {
      again = parse_conv(conv_text(op.conv), op.m, op.k);
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
    if (again != op.conv)
      throw InputError(where + ": conv " + conv_text(op.conv) + " with m = " + n2s(op.m) +
                       " gives " + n2s(again.images) + " images of " + n2s(again.out_h) + " x " +
                       n2s(again.out_w) + " outputs, not the " + n2s(op.conv.images) + " of " +
                       n2s(op.conv.out_h) + " x " + n2s(op.conv.out_w) + " given");
  }
  OpShape s;
  try {
    s.spec = PruneSpec::parse_label(op.sparsity);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  s.rows = std::int64_t(op.batch) * op.n;
  if (!op.row_op.empty()) {
    try {
      parse_row_op(op.row_op);
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
    if (op.k != 1)
      throw InputError(where + ": row_op " + op.row_op +
                       " is m rows of n elements: k must be 1, got " + n2s(op.k));
    if (op.sparsity != "dense" || op.conv.present() || !op.values_dtype.empty())
      throw InputError(where + ": a row_op is dense, with no conv= and no weight payload");
    if (!op.causal.empty() && (op.causal != "output" || op.row_op != "softmax"))
      throw InputError(where +
                       ": only a softmax takes a causal mask (causal=output: row i holds its "
                       "first i + 1 elements), got causal=" +
                       op.causal + " on " + op.row_op);
  } else if (!op.causal.empty()) {
    if (op.causal != "output" && op.causal != "a")
      throw InputError(where +
                       ": causal must be 'output' (the scores Q K^T) or 'a' (the "
                       "probabilities of P V), got '" +
                       op.causal + "'");
    if (op.sparsity != "dense" || op.conv.present() || !op.values_dtype.empty())
      throw InputError(where +
                       ": a causal attention op has two activation operands: dense, "
                       "no conv= and no weight payload");
  }
  const bool nm_part = s.nm() || (s.block() && s.spec.inner_nm);
  if (nm_part && op.k % s.spec.nm.m)
    throw InputError(where + ": sparsity " + op.sparsity + " needs k to be a multiple of " +
                     n2s(s.spec.nm.m) + ", got k = " + n2s(op.k));
  if (s.rows > std::numeric_limits<int>::max())
    throw InputError(where + ": batch x n = " + n2s(s.rows) + " weight rows is more than " +
                     n2s(std::numeric_limits<int>::max()));
  if (s.block()) {
    s.grid_rows = (s.rows + s.spec.block_rows - 1) / s.spec.block_rows;
    s.grid_cols = (op.k + s.spec.block_cols - 1) / s.spec.block_cols;
    if (s.grid_rows * s.spec.block_rows > std::numeric_limits<int>::max())
      throw InputError(where + ": batch x n = " + n2s(s.rows) +
                       " rows is too many for a block map");
  }
  return s;
}

std::int64_t expected_values(const OpShape& s, const TraceOp& op, std::int64_t nnz_blocks) {
  if (s.block()) return nnz_blocks * s.spec.block_rows * s.spec.block_cols;
  if (s.nm()) return s.rows * (op.k / s.spec.nm.m) * s.spec.nm.n;
  return s.rows * op.k;
}

std::int64_t expected_metadata(const OpShape& s, const TraceOp& op) {
  const std::int64_t groups = op.k / s.spec.nm.m;
  if (op.metadata_format == "ptx16") return s.rows * (groups / 4);
  return s.rows * groups * s.spec.nm.n;
}

namespace {

void check_count(const std::string& what_where, std::int64_t have, std::int64_t want,
                 const std::string& unit) {
  if (have != want)
    throw InputError(what_where + ": holds " + n2s(have) + " " + unit + ", expected " + n2s(want));
}

void check_width(const std::vector<std::uint32_t>& v, int bits, const char* array,
                 const WhereFn& where) {
  if (bits >= 32) return;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] >> bits)
      throw InputError(where(array, std::int64_t(i)) + ": value 0x" +
                       [&] {
                         char buf[16];
                         std::snprintf(buf, sizeof buf, "%X", v[i]);
                         return std::string(buf);
                       }() +
                       " is wider than " + n2s(bits) + " bits");
}

void check_block_map(const TraceOp& op, const OpShape& s, const WhereFn& where) {
  check_count(where("row_ptr", -1), std::int64_t(op.row_ptr.size()), s.grid_rows + 1, "entries");
  check_count(where("panel_nnz", -1), std::int64_t(op.panel_nnz.size()), s.grid_rows, "entries");
  if (op.row_ptr[0] != 0) throw InputError(where("row_ptr", 0) + ": the first entry must be 0");
  for (std::int64_t i = 0; i < s.grid_rows; ++i) {
    const std::int64_t step = std::int64_t(op.row_ptr[i + 1]) - op.row_ptr[i];
    if (step < 0 || step > s.grid_cols)
      throw InputError(where("row_ptr", i + 1) + ": panel " + n2s(i) + " would hold " + n2s(step) +
                       " blocks (expected 0.." + n2s(s.grid_cols) + ")");
    if (op.panel_nnz[i] != step)
      throw InputError(where("panel_nnz", i) + ": panel " + n2s(i) + " count " +
                       n2s(op.panel_nnz[i]) + " differs from row_ptr's " + n2s(step));
  }
  check_count(where("col_idx", -1), std::int64_t(op.col_idx.size()), op.row_ptr.back(),
              "entries (row_ptr's last entry)");
  // Column range and order, checked here rather than by building a sparse::Bsr: its
  // values (blocks x R x C) would be allocated only to be checked, and a few hundred
  // payload bytes declaring 4096x4096 blocks once asked for 13 GB.
  for (std::int64_t bi = 0; bi < s.grid_rows; ++bi)
    for (std::int64_t p = op.row_ptr[bi]; p < std::int64_t(op.row_ptr[bi + 1]); ++p) {
      if (std::int64_t(op.col_idx[p]) >= s.grid_cols)
        throw InputError(where("col_idx", -1) + ": block " + n2s(p) + ": block column " +
                         n2s(op.col_idx[p]) + " outside 0.." + n2s(s.grid_cols - 1));
      if (p > std::int64_t(op.row_ptr[bi]) && op.col_idx[p] <= op.col_idx[p - 1])
        throw InputError(where("col_idx", -1) + ": block row " + n2s(bi) +
                         ": block columns must strictly increase");
    }
}

// Stored blocks are zero outside the matrix (the padding of edge blocks).
void check_block_padding(const TraceOp& op, const OpShape& s, const WhereFn& where) {
  const int r = s.spec.block_rows, c = s.spec.block_cols;
  for (std::int64_t bi = 0; bi < s.grid_rows; ++bi)
    for (std::int64_t p = op.row_ptr[bi]; p < op.row_ptr[bi + 1]; ++p)
      for (int i = 0; i < r; ++i)
        for (int j = 0; j < c; ++j) {
          const bool outside = bi * r + i >= s.rows || std::int64_t(op.col_idx[p]) * c + j >= op.k;
          const std::int64_t e = p * r * c + i * c + j;
          if (outside && op.values[std::size_t(e)] != 0)
            throw InputError(where("values", e) + ": block " + n2s(p) +
                             " holds a nonzero in its padding (outside the " + n2s(s.rows) + "x" +
                             n2s(op.k) + " matrix)");
        }
}

}  // namespace

void check_payload(const TraceOp& op, const OpShape& s, const std::string& where_op,
                   const WhereFn& where) {
  const bool has_values = !op.values_dtype.empty(), has_meta = !op.metadata_format.empty(),
             has_map = !op.row_ptr.empty();
  if (has_values && !value_bytes(op.values_dtype))
    throw InputError(where_op + ": unknown values_dtype '" + op.values_dtype +
                     "' (expected fp16|fp32)");
  if (has_meta && !metadata_bytes(op.metadata_format))
    throw InputError(where_op + ": unknown metadata_format '" + op.metadata_format +
                     "' (expected ptx16|index8)");
  if (!has_values && !op.values.empty())
    throw InputError(where_op + ": values without values_dtype");
  if (!has_meta && !op.metadata.empty())
    throw InputError(where_op + ": metadata without metadata_format");
  if (!has_map && (!op.col_idx.empty() || !op.panel_nnz.empty()))
    throw InputError(where_op + ": col_idx and panel_nnz need row_ptr (a block map is all three)");
  if (has_meta && !s.nm())
    throw InputError(where_op + ": metadata belongs to N:M ops, this one is " + op.sparsity);
  if (has_map && !s.block())
    throw InputError(where_op +
                     ": a block map (row_ptr, col_idx, panel_nnz) belongs to block ops, "
                     "this one is " +
                     op.sparsity);
  if (s.nm() && has_values && !has_meta)
    throw InputError(where_op +
                     ": the values of an N:M op are its kept values, placed by its metadata "
                     "(metadata, metadata_format): give both or neither");
  if (s.block() && has_values && !has_map)
    throw InputError(where_op +
                     ": the values of a block op need its block map (row_ptr, col_idx, panel_nnz)");

  if (has_map) check_block_map(op, s, where);
  if (has_values) {
    const std::int64_t nnz = has_map ? op.row_ptr.back() : 0;
    check_count(where("values", -1), std::int64_t(op.values.size()), expected_values(s, op, nnz),
                op.values_dtype + " values");
    check_width(op.values, 8 * value_bytes(op.values_dtype), "values", where);
    if (has_map) check_block_padding(op, s, where);
  }
  if (has_meta) {
    if (op.metadata_format == "ptx16") {
      if (!sparse::has_ptx_metadata(s.spec.nm) || (op.k / s.spec.nm.m) % 4)
        throw InputError(where("metadata", -1) +
                         ": ptx16 metadata needs 2:4 or 1:2 and k a multiple of " +
                         n2s(4 * s.spec.nm.m) + " (sparsity " + op.sparsity + ", k = " + n2s(op.k) +
                         "); use index8");
    }
    check_count(where("metadata", -1), std::int64_t(op.metadata.size()), expected_metadata(s, op),
                op.metadata_format + " elements");
    check_width(op.metadata, 8 * metadata_bytes(op.metadata_format), "metadata", where);
    try {
      if (op.metadata_format == "ptx16") {
        sparse::MetadataWords w{int(s.rows), int(op.k / s.spec.nm.m / 4), 16, op.metadata};
        sparse::unpack_metadata(w, s.spec.nm, int(op.k), sparse::MetadataOrder::Ordered);
      } else {
        sparse::CompressedNm c{int(s.rows), int(op.k), s.spec.nm, {}, {}};
        c.values.assign(op.metadata.size(), 0);
        c.indices.assign(op.metadata.begin(), op.metadata.end());
        sparse::validate(c);
      }
    } catch (const InputError& e) {
      throw InputError(where("metadata", -1) + ": " + e.what());
    }
  }
}

}  // namespace stcsim::workloads::trace_detail
