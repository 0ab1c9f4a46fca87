#include "models/sparse/metadata.h"
#include "sim/core/input_error.h"
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

bool TraceOp::operator==(const TraceOp& o) const {
  return name == o.name && layer == o.layer && m == o.m && n == o.n && k == o.k &&
         batch == o.batch && dtype == o.dtype && sparsity == o.sparsity &&
         values_dtype == o.values_dtype && values == o.values &&
         metadata_format == o.metadata_format && metadata == o.metadata && row_ptr == o.row_ptr &&
         col_idx == o.col_idx && panel_nnz == o.panel_nnz && values_ref == o.values_ref &&
         metadata_ref == o.metadata_ref && row_ptr_ref == o.row_ptr_ref &&
         col_idx_ref == o.col_idx_ref && panel_nnz_ref == o.panel_nnz_ref;
}

bool Trace::operator==(const Trace& o) const {
  return version == o.version && model == o.model && synthetic == o.synthetic && dtype == o.dtype &&
         source == o.source && prune == o.prune && lowering == o.lowering && ops == o.ops &&
         payload_file == o.payload_file && payload_bytes == o.payload_bytes;
}

}  // namespace stcsim::workloads
