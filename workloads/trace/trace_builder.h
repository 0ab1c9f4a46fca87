// A model -> lowering -> pruning -> trace v1, the path `stcsim trace` takes.
//
// One op per layer, in execution order, named after the layer (characters the trace
// cannot carry in a name, blanks, '=' and '#', become '_'; a repeated name gets ".2",
// ".3", ...); `layer` is recorded only when it differs from the op's name (a repeated
// name). Each op's sparsity is what pruning applied to that layer (its report's
// `applied`). synthetic = !model.real_weights.
//
// Payload (when the model has weights and TraceBuildOptions::payload): the pruned weight
// [batch*n, k] converted to values_dtype (fp16 round-to-nearest-even through
// models/numerics, or fp32 as is), then
//   N:M ops:   compressed through models/sparse compress(); metadata ptx16
//              (pack_metadata, 16-bit words) for 2:4 / 1:2 with k a multiple of 4M,
//              index8 otherwise;
//   block ops: the BSR of the weight zero-padded to whole blocks (models/sparse to_bsr,
//              a block is stored when an fp32 element of it is nonzero), its values and
//              per-panel counts;
//   dense ops: the full values only with dense_values.
// Shape-only models give ops without payload: the sparsity label alone.
#pragma once
#include <string>
#include <vector>

#include "workloads/lowering/lowering.h"
#include "workloads/pruning/prune_model.h"
#include "workloads/trace/trace.h"

namespace stcsim::workloads {

struct TraceBuildOptions {
  std::string dtype = "fp16";         // the ops' dtype (fp16|bf16|tf32|int8|fp8_e4m3|fp8_e5m2)
  bool payload = true;                // write weights, metadata, block maps when there are weights
  bool dense_values = false;          // also the values of dense ops
  std::string values_dtype = "fp16";  // fp16 | fp32
};

struct BuiltTrace {
  Trace trace;
  std::vector<LoweredGemm> gemms;  // in op order
  PruneResult pruning;             // reports per layer, the pruned model
};

BuiltTrace build_trace(const Model& model, const LoweringOptions& lowering, const PruneSpec& spec,
                       const PruneOptions& prune_options = {},
                       const TraceBuildOptions& options = {});

// "batch=8 seq=512" (+ " image=HxW" when set): the trace's `lowering` line.
std::string describe(const LoweringOptions& lowering);

}  // namespace stcsim::workloads
