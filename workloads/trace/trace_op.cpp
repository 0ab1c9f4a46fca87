#include <cstdio>

#include "models/sparse/metadata.h"
#include "sim/core/input_error.h"
#include "workloads/lowering/lowering.h"
#include "workloads/pruning/prune_spec.h"
#include "workloads/trace/trace.h"

namespace stcsim::workloads {

int TraceOp::block_rows() const {
  const PruneSpec s = PruneSpec::parse_label(sparsity);
  return s.kind == PruneSpec::Kind::Block ? s.block_rows : 0;
}

int TraceOp::block_cols() const {
  const PruneSpec s = PruneSpec::parse_label(sparsity);
  return s.kind == PruneSpec::Kind::Block ? s.block_cols : 0;
}

sparse::CompressedNm TraceOp::compressed() const {
  const PruneSpec s = PruneSpec::parse_label(sparsity);
  if (s.kind != PruneSpec::Kind::Nm || values_dtype.empty() || metadata_format.empty())
    throw InputError("op '" + name + "' (" + sparsity + ") holds no N:M values and metadata");
  const int rows = int(std::int64_t(batch) * n);
  sparse::CompressedNm c{rows, int(k), s.nm, values, {}};
  if (metadata_format == "index8") {
    c.indices.assign(metadata.begin(), metadata.end());
  } else {
    sparse::MetadataWords w{rows, int(k / s.nm.m / 4), 16, metadata};
    c.indices = sparse::unpack_metadata(w, s.nm, int(k), sparse::MetadataOrder::Ordered);
  }
  sparse::validate(c);
  return c;
}

sparse::Bsr TraceOp::bsr() const {
  const PruneSpec s = PruneSpec::parse_label(sparsity);
  if (s.kind != PruneSpec::Kind::Block || row_ptr.empty())
    throw InputError("op '" + name + "' (" + sparsity + ") holds no block map");
  const std::int64_t rows = std::int64_t(batch) * n;
  const int r = s.block_rows, c = s.block_cols;
  sparse::Bsr b;
  b.rows = int((rows + r - 1) / r * r);
  b.cols = int((k + c - 1) / c * c);
  b.block_rows = r;
  b.block_cols = c;
  b.row_ptr = row_ptr;
  b.col_idx = col_idx;
  b.values = values_dtype.empty()
                 ? std::vector<std::uint32_t>(col_idx.size() * std::size_t(r * c), 0)
                 : values;
  sparse::validate(b);
  return b;
}

std::string conv_text(const ConvShape& c) {
  auto s = [](std::int64_t v) { return std::to_string(v); };
  return s(c.in_h) + "x" + s(c.in_w) + ":" + s(c.kernel_h) + "x" + s(c.kernel_w) + ":s" +
         s(c.stride) + ":p" + s(c.padding) + ":d" + s(c.dilation);
}

ConvShape parse_conv(const std::string& text, std::int64_t m, std::int64_t k) {
  const std::string form =
      "conv must be <H>x<W>:<R>x<S>:s<stride>:p<pad>:d<dil>, got '" + text + "'";
  ConvShape c;
  char x1 = 0, x2 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, ls = 0, lp = 0, ld = 0;
  long long h = 0, w = 0, r = 0, sw = 0, st = 0, pad = -1, dil = 0;
  int used = 0;
  if (std::sscanf(text.c_str(), "%lld%c%lld%c%lld%c%lld%c%c%lld%c%c%lld%c%c%lld%n", &h, &x1, &w,
                  &c1, &r, &x2, &sw, &c2, &ls, &st, &c3, &lp, &pad, &c4, &ld, &dil, &used) != 16 ||
      used != int(text.size()) || x1 != 'x' || x2 != 'x' || c1 != ':' || c2 != ':' || c3 != ':' ||
      c4 != ':' || ls != 's' || lp != 'p' || ld != 'd')
    throw InputError(form);
  const std::int64_t big = 1 << 24;
  for (long long v : {h, w, r, sw, st, dil})
    if (v < 1 || v > big) throw InputError(form + " (sizes from 1 to " + std::to_string(big) + ")");
  if (pad < 0 || pad > big) throw InputError(form + " (padding from 0)");
  c.in_h = h;
  c.in_w = w;
  c.kernel_h = r;
  c.kernel_w = sw;
  c.stride = st;
  c.padding = pad;
  c.dilation = dil;
  c.out_h = conv_out_size(h, r, st, pad, dil, "conv " + text);
  c.out_w = conv_out_size(w, sw, st, pad, dil, "conv " + text);
  const std::int64_t per_image = c.out_h * c.out_w;
  if (m % per_image)
    throw InputError("conv " + text + " gives " + std::to_string(c.out_h) + " x " +
                     std::to_string(c.out_w) +
                     " outputs per image, which does not divide m = " + std::to_string(m));
  if (k % c.taps())
    throw InputError("conv " + text + ": k = " + std::to_string(k) +
                     " is not a multiple of the window's " + std::to_string(c.taps()) + " taps");
  c.images = m / per_image;
  return c;
}

bool TraceOp::operator==(const TraceOp& o) const {
  return name == o.name && layer == o.layer && m == o.m && n == o.n && k == o.k &&
         batch == o.batch && dtype == o.dtype && sparsity == o.sparsity && conv == o.conv &&
         causal == o.causal && row_op == o.row_op && values_dtype == o.values_dtype &&
         values == o.values && metadata_format == o.metadata_format && metadata == o.metadata &&
         row_ptr == o.row_ptr && col_idx == o.col_idx && panel_nnz == o.panel_nnz &&
         values_ref == o.values_ref && metadata_ref == o.metadata_ref &&
         row_ptr_ref == o.row_ptr_ref && col_idx_ref == o.col_idx_ref &&
         panel_nnz_ref == o.panel_nnz_ref;
}

bool Trace::operator==(const Trace& o) const {
  return version == o.version && model == o.model && synthetic == o.synthetic && dtype == o.dtype &&
         source == o.source && prune == o.prune && lowering == o.lowering && ops == o.ops &&
         payload_file == o.payload_file && payload_bytes == o.payload_bytes;
}

}  // namespace stcsim::workloads
