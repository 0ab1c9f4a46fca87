// The rules of trace format v1 that both the reader and the writer apply, so that a
// trace the writer accepts is one the reader accepts. Internal to workloads/trace.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "workloads/pruning/prune_spec.h"
#include "workloads/trace/trace.h"

namespace stcsim::workloads::trace_detail {

// Names the place of an error: (array, element) -> "file.bin byte 1234 (...)" for the
// reader, "op 'x' row_ptr[5]" for the writer; element -1 = the array as a whole.
using WhereFn = std::function<std::string(const char* array, std::int64_t element)>;

constexpr std::int64_t kMaxDim = std::int64_t(1) << 24;

bool is_dtype(const std::string& s);
const char* dtype_list();
int value_bytes(const std::string& values_dtype);        // 2 or 4; 0 if unknown
int metadata_bytes(const std::string& metadata_format);  // 2 or 1; 0 if unknown
// A name the text format can carry: nonempty, no blanks, '=' or '#'.
bool is_token(const std::string& s);

struct OpShape {
  PruneSpec spec;                             // parsed sparsity (target 0)
  std::int64_t rows = 0;                      // batch * n
  std::int64_t grid_rows = 0, grid_cols = 0;  // block ops
  bool nm() const { return spec.kind == PruneSpec::Kind::Nm; }
  bool block() const { return spec.kind == PruneSpec::Kind::Block; }
};

// Shape, dtype and sparsity of an op; `where` prefixes messages. Payload arrays are not
// looked at.
OpShape check_op_fields(const TraceOp& op, const std::string& where);

// Element counts the payload arrays must have (nnz_blocks: the block count of the op).
std::int64_t expected_values(const OpShape& s, const TraceOp& op, std::int64_t nnz_blocks);
std::int64_t expected_metadata(const OpShape& s, const TraceOp& op);  // by op.metadata_format

// Which arrays an op may hold, their sizes and contents (BSR structure and padding,
// panel counts, N:M indices or metadata nibbles, value widths). `where_op` prefixes
// messages about the op as a whole.
void check_payload(const TraceOp& op, const OpShape& s, const std::string& where_op,
                   const WhereFn& where);

}  // namespace stcsim::workloads::trace_detail
