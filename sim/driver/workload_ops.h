// Simulator ops from workloads: trace files (format 0 or 1), models (real, zoo or a
// user's checkpoint) lowered and pruned. Nothing here knows about SystemC.
#pragma once
#include <string>
#include <vector>

#include "models/common/gemm_op.h"
#include "workloads/layer.h"
#include "workloads/lowering/lowering.h"
#include "workloads/pruning/prune_model.h"
#include "workloads/trace/trace.h"
#include "workloads/trace/trace_builder.h"

namespace stcsim {

// The op a trace line describes. Its sparsity label maps onto the tensor core: "N:M"
// runs as mma.sp; "block:RxC" keeps the dense datapath (no block skipping is modelled
// yet) and is reported in weight_pattern; "block:RxC+N:M" runs as N:M.
GemmOp op_from_trace(const workloads::TraceOp& t, const std::string& prefix = "");

// Reads a trace of format 0 or 1 (by its header).
std::vector<GemmOp> read_any_trace(const std::string& path, Dtype default_dtype);

// How a weight file without a graph stores a Linear layer's matrix: [out, in] (PyTorch,
// ONNX initializers of Gemm transB) or [in, out] (Paddle's nn.Linear, Keras' Dense).
enum class WeightLayout { OutIn, InOut };
// "out_in" or "in_out"; InputError naming --weight-layout otherwise.
WeightLayout parse_weight_layout(const std::string& text);

// A real model (needs the fetch), a zoo model, or a path to a checkpoint (.safetensors,
// .npy, ...) whose 2-D tensors become Linear layers in file order, read in `layout`
// (InOut: transposed to [out, in]). A layout other than OutIn for a model that is not a
// weight file without a graph is an InputError (a graph says how each weight is used).
workloads::Model load_any_model(const std::string& name_or_path,
                                WeightLayout layout = WeightLayout::OutIn);

// One line on stderr saying what M the model's sequence Linear layers (those without
// their own input size) get: batch x tokens per sample, and how to change it. Nothing
// when the model has no such layer.
void print_tokens_line(const workloads::Model& model, const workloads::LoweringOptions& low);
// The lowering a model is usually run at (zoo defaults; batch 1 otherwise).
workloads::LoweringOptions default_lowering(const std::string& name_or_path);

struct ModelRunOptions {
  workloads::LoweringOptions lowering;
  Dtype dtype = Dtype::FP16;
  workloads::PruneOptions prune;     // --exclude, --min-density
  std::uint64_t synthetic_seed = 1;  // weights of a shapes-only model pruned in blocks
};
// The model's trace, lowered with opt.lowering and pruned with `spec` (a workloads
// PruneSpec string) as `stcsim run --model` runs it: a shapes-only model pruned in blocks
// gets seeded synthetic weights first (with_synthetic_weights; InputError when they would
// be too many), so its block maps are real; `payload` also writes the values of other
// patterns (block maps are always written).
workloads::BuiltTrace build_model_trace(const workloads::Model& model, const std::string& spec,
                                        const ModelRunOptions& opt, bool payload);
// Whether build_model_trace seeds synthetic weights for `spec`.
bool seeds_synthetic_weights(const workloads::Model& model, const std::string& spec);

// The model's GEMMs pruned with `spec` (a workloads PruneSpec string), named
// "<prefix><layer>", each with its pruning note. A shapes-only model pruned in blocks
// gets seeded synthetic weights first (with_synthetic_weights), so that its GEMMs run on
// the block-skipping kernel with a block map; its ops say synthetic_weights.
std::vector<GemmOp> model_ops(const workloads::Model& model, const std::string& spec,
                              const ModelRunOptions& opt, const std::string& prefix);

}  // namespace stcsim
