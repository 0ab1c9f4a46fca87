#include "workloads/trace/trace_builder.h"

#include <cstring>
#include <set>

#include "models/numerics/float_format.h"
#include "models/sparse/bsr.h"
#include "models/sparse/metadata.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"
#include "workloads/trace/trace_check.h"

namespace stcsim::workloads {

namespace {

std::uint32_t fp32_bits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::vector<std::uint32_t> to_bits(const std::vector<float>& w, const std::string& dtype) {
  std::vector<std::uint32_t> out(w.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    out[i] = dtype == "fp32" ? fp32_bits(w[i])
                             : numerics::encode(numerics::FloatFormat::FP16, double(w[i]),
                                                numerics::Rounding::NearestEven);
  return out;
}

// fp32 bit patterns -> values_dtype bit patterns.
std::uint32_t convert_bits(std::uint32_t fp32, const std::string& dtype) {
  if (dtype == "fp32") return fp32;
  float v;
  std::memcpy(&v, &fp32, sizeof v);
  return numerics::encode(numerics::FloatFormat::FP16, double(v), numerics::Rounding::NearestEven);
}

std::string sanitize(const std::string& s) {
  std::string out = s.empty() ? std::string("op") : s;
  for (char& ch : out)
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '=' || ch == '#') ch = '_';
  return out;
}

void add_payload(TraceOp& op, const std::vector<float>& w, const PruneSpec& applied,
                 const TraceBuildOptions& opt) {
  const std::int64_t rows = std::int64_t(op.batch) * op.n;
  if (applied.kind == PruneSpec::Kind::Nm) {
    const auto bits = to_bits(w, opt.values_dtype);
    const sparse::CompressedNm c = sparse::compress(bits, int(rows), int(op.k), applied.nm);
    op.values_dtype = opt.values_dtype;
    op.values = c.values;
    if (sparse::has_ptx_metadata(applied.nm) && (op.k / applied.nm.m) % 4 == 0) {
      op.metadata_format = "ptx16";
      op.metadata = sparse::pack_metadata(c, 16).words;
    } else {
      op.metadata_format = "index8";
      op.metadata.assign(c.indices.begin(), c.indices.end());
    }
  } else if (applied.kind == PruneSpec::Kind::Block) {
    const int r = applied.block_rows, bc = applied.block_cols;
    const std::int64_t prow = (rows + r - 1) / r * r, pcol = (op.k + bc - 1) / bc * bc;
    std::vector<std::uint32_t> padded(std::size_t(prow * pcol), 0);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < op.k; ++j)
        padded[std::size_t(i * pcol + j)] = fp32_bits(w[std::size_t(i * op.k + j)]);
    sparse::Bsr b = sparse::to_bsr(padded, int(prow), int(pcol), r, bc);
    op.row_ptr.assign(b.row_ptr.begin(), b.row_ptr.end());
    op.col_idx.assign(b.col_idx.begin(), b.col_idx.end());
    op.panel_nnz.resize(op.row_ptr.size() - 1);
    for (std::size_t i = 0; i + 1 < op.row_ptr.size(); ++i)
      op.panel_nnz[i] = op.row_ptr[i + 1] - op.row_ptr[i];
    op.values_dtype = opt.values_dtype;
    op.values.resize(b.values.size());
    for (std::size_t i = 0; i < b.values.size(); ++i)
      op.values[i] = convert_bits(b.values[i], opt.values_dtype);
  } else if (opt.dense_values) {
    op.values_dtype = opt.values_dtype;
    op.values = to_bits(w, opt.values_dtype);
  }
}

}  // namespace

std::string describe(const LoweringOptions& lo) {
  std::string s = "batch=" + std::to_string(lo.batch) + " seq=" + std::to_string(lo.seq_len);
  if (lo.image_h > 0)
    s += " image=" + std::to_string(lo.image_h) + "x" + std::to_string(lo.image_w);
  return s;
}

BuiltTrace build_trace(const Model& model, const LoweringOptions& lowering, const PruneSpec& spec,
                       const PruneOptions& prune_options, const TraceBuildOptions& opt) {
  if (!trace_detail::is_dtype(opt.dtype))
    throw InputError("trace: unknown dtype '" + opt.dtype + "' (expected " +
                     trace_detail::dtype_list() + ")");
  if (opt.values_dtype != "fp16" && opt.values_dtype != "fp32")
    throw InputError("trace: values dtype must be fp16 or fp32, got '" + opt.values_dtype + "'");
  BuiltTrace bt;
  bt.gemms = lower_model(model, lowering);
  bt.pruning = prune_model(model, spec, prune_options);
  Trace& t = bt.trace;
  t.model = sanitize(model.name);
  t.synthetic = !model.real_weights;
  t.dtype = opt.dtype;
  t.source = model.source;
  for (char& ch : t.source)
    if (ch == '\n' || ch == '\r') ch = ' ';
  t.prune = spec.str();
  t.lowering = describe(lowering);
  std::set<std::string> names;
  for (std::size_t i = 0; i < bt.gemms.size(); ++i) {
    const LoweredGemm& g = bt.gemms[i];
    const LayerPruneReport& rep = bt.pruning.layers[i];
    TraceOp op;
    op.name = sanitize(g.name);
    for (int dup = 2; !names.insert(op.name).second; ++dup)
      op.name = sanitize(g.name) + "." + std::to_string(dup);
    if (g.layer != g.name) op.layer = sanitize(g.layer);
    op.m = g.m;
    op.n = g.n;
    op.k = g.k;
    op.batch = g.batch;
    op.conv = g.conv;
    op.causal = g.causal;
    op.row_op = g.row_op;
    op.dtype = opt.dtype;
    op.sparsity = rep.applied;
    const Layer& layer = model.layers[i];
    auto it = bt.pruning.model.weights.find(layer.weight);
    if (opt.payload && !layer.weight.empty() && it != bt.pruning.model.weights.end())
      add_payload(op, it->second.data, PruneSpec::parse_label(rep.applied), opt);
    t.ops.push_back(std::move(op));
  }
  return bt;  // write_trace validates it
}

}  // namespace stcsim::workloads
