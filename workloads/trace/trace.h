// Trace format v1: the GEMMs of a workload, in execution order, with the sparsity of
// each weight operand and, optionally, the pruned weights themselves (values, N:M
// metadata, block indices) in a binary payload beside the text. workloads/README.md
// documents every field, unit and an example; this header is the API.
//
//   stcsim-trace 1
//   model <name>                       required, one token
//   synthetic <true|false>             required: true when the weights are not real
//   dtype <fp16|bf16|tf32|int8|fp8_e4m3|fp8_e5m2>   required: the default dtype of the ops
//   ops <count>                        required: number of op lines (detects truncation)
//   payload <file> <bytes>             optional: the payload, relative to the trace's folder
//   source <text> / prune <text> / lowering <text>   optional, free text to end of line
//   op <name> m=<M> n=<N> k=<K> [batch=<B>] [dtype=<d>] [sparsity=<s>] [layer=<l>]
//      [conv=<H>x<W>:<R>x<S>:s<stride>:p<pad>:d<dil>] [causal=<output|a>]
//      [row_op=<softmax|layernorm|rmsnorm|gelu|silu_mul|add|embedding>]
//      [values=<off>:<bytes> values_dtype=<fp16|fp32>]
//      [metadata=<off>:<bytes> metadata_format=<ptx16|index8>]
//      [row_ptr=<off>:<bytes> col_idx=<off>:<bytes> panel_nnz=<off>:<bytes>]
// Lines whose first non-blank character is '#' and blank lines are ignored.
//
// The sim reads the old format 0 ("stcsim-trace 0", sim/driver/gemm_list.cpp); this
// reader reads version 1 only and says so for any other.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/conv_shape.h"
#include "models/sparse/bsr.h"
#include "models/sparse/nm_compress.h"

namespace stcsim::workloads {

inline constexpr int kTraceVersion = 1;

// A byte range of the payload file.
struct PayloadRef {
  std::int64_t offset = -1, bytes = 0;
  bool present() const { return offset >= 0; }
  bool operator==(const PayloadRef& o) const { return offset == o.offset && bytes == o.bytes; }
};

struct TraceOp {
  std::string name;   // unique in the trace; no blanks, '=' or '#'
  std::string layer;  // the layer it lowers, when not the op's name ("" otherwise)
  std::int64_t m = 0, n = 0, k = 0;
  int batch = 1;                   // independent GEMMs of this shape (conv groups)
  std::string dtype = "fp16";      // a models/common/dtype.h name (fp16 ... fp8_e5m2)
  std::string sparsity = "dense";  // dense | N:M | block:RxC | block:RxC+N:M (of B = W)
  // Conv2d ops: the input size, kernel window, stride, padding and dilation
  // (conv=<H>x<W>:<R>x<S>:s<stride>:p<pad>:d<dil>); images and the output size follow
  // from m. Absent for linear layers.
  ConvShape conv;
  // Attention GEMMs under a causal mask (models/common/gemm_op.h Causal): "output" (the
  // scores Q K^T), "a" (the probabilities of P V), "" (none). Dense ops without payload.
  std::string causal;
  // A network's non-GEMM op (models/common/row_op.h): m rows of n elements, batch copies,
  // k = 1; dense, no payload or conv=; causal=output only on a softmax. "" for a GEMM.
  std::string row_op;

  // Payload, decoded. The weight is the matrix [batch * n, k] (groups stacked).
  std::string values_dtype;             // "" (none), "fp16" or "fp32"
  std::vector<std::uint32_t> values;    // element bit patterns (fp16 in the low 16 bits):
                                        //   dense: [batch*n, k]; N:M: kept values
                                        //   [batch*n, k*N/M]; block: the stored blocks,
                                        //   each R x C row-major, edges zero-padded
  std::string metadata_format;          // "" (none), "ptx16" or "index8" (N:M only)
  std::vector<std::uint32_t> metadata;  // ptx16: 16-bit words [batch*n, k/M/4] as
                                        //   models/sparse pack_metadata(c, 16) packs them;
                                        //   index8: each kept value's position in its group
  std::vector<std::int32_t> row_ptr;    // block ops: BSR of the weight zero-padded to whole
  std::vector<std::int32_t> col_idx;    //   blocks (panels = block rows of R rows)
  std::vector<std::int32_t> panel_nnz;  //   nonzero blocks per panel (= row_ptr steps)

  // Where the payload arrays sit (filled by write_trace and read_trace).
  PayloadRef values_ref, metadata_ref, row_ptr_ref, col_idx_ref, panel_nnz_ref;
  int line = 0;  // line of the op in the trace file (read_trace), not compared by ==

  bool has_block_map() const { return !row_ptr.empty(); }
  int block_rows() const;  // R of a block sparsity, 0 otherwise
  int block_cols() const;  // C
  // The payload as models/sparse types (InputError when the op does not hold them):
  // N:M values + metadata as CompressedNm; block map (+ values) as the padded Bsr
  // (values all zero when the trace holds only the map).
  sparse::CompressedNm compressed() const;
  sparse::Bsr bsr() const;

  bool operator==(const TraceOp& o) const;
};

struct Trace {
  int version = kTraceVersion;
  std::string model;
  bool synthetic = true;
  std::string dtype = "fp16";
  std::string source, prune, lowering;  // free text, "" when absent
  std::vector<TraceOp> ops;
  std::string payload_file;  // as the header names it ("" when none)
  std::int64_t payload_bytes = 0;

  bool operator==(const Trace& o) const;
};

// The `conv=` value of an op, and back: parse_conv reads `text` for an op of `m` rows and
// `k` columns and throws InputError saying what is wrong (a malformed value, a window
// larger than the padded input, m not a whole number of output images, k not a multiple
// of R x S).
std::string conv_text(const ConvShape& c);
ConvShape parse_conv(const std::string& text, std::int64_t m, std::int64_t k);

// Reads a v1 trace and its payload. Every error is an InputError naming the file and
// line (or the payload file and byte offset) and what was expected.
Trace read_trace(const std::string& path);

// Checks the trace (the same rules the reader applies), then writes `path` and, when an
// op has payload arrays, `<path>.bin` beside it (payload arrays 16-byte aligned, in op
// order: values, metadata, row_ptr, col_idx, panel_nnz). Returns the trace as written:
// payload references and the payload header filled in, so read_trace(path) == result.
Trace write_trace(const std::string& path, const Trace& trace);

// The checks write_trace applies (the reader applies the same ones to what it decodes):
// header fields, op shapes, dtypes, sparsity, names, payload array sizes and contents
// (BSR structure and padding, panel counts, N:M indices / metadata nibbles, value widths;
// "at most N nonzeros per group" is implied by the compressed form). `where_file` starts
// every message.
void validate_trace(const Trace& trace, const std::string& where_file);

}  // namespace stcsim::workloads
