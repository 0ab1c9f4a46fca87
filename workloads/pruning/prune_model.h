// Pruning a model's weight operands (B = W) to a PruneSpec, with a report per layer.
//
// Each layer's weight is the matrix [N, K] the GEMM reads: [out, in] for Linear, the
// OIHW tensor read as [O, I/groups * kh * kw] for Conv2d (all groups stacked; a block of
// r rows may then straddle two groups when O / groups is not a multiple of r).
//
// Layers that cannot take the pattern stay as they are and say why in their report
// (`note`): N:M needs K to be a multiple of M (e.g. ResNet's first conv, K = 147, and
// depthwise convs, K = 9, stay dense under 2:4, as NVIDIA's ASP also leaves them); with
// block + N:M the block part still applies; blocks need each group's output channels to
// be whole block rows (depthwise convs, one channel per group, stay unblocked).
// PruneOptions::skip_incompatible = false makes
// that an InputError instead. Layers in PruneOptions::exclude, or whose name
// PruneOptions::exclude_regex finds (std::regex_search, ECMAScript), stay dense.
//
// Floors (block_floor.h): block pruning never removes a layer's last block, and with
// PruneOptions::min_density D each layer keeps at least a fraction D of its blocks (with
// N:M inside, D / (N/M) of them); the blocks given back are the layer's best pruned ones,
// and the report says so (`floored`, `note`). An N:M pattern that keeps less than D
// (2:4 keeps 0.5) is not applied to any layer; the note says why.
//
// Shape-only models (no weight tensor for a layer) get the pattern recorded, not applied:
// `has_weights` is false, `sparsity` is the nominal one and `magnitude_kept` is NaN.
// with_synthetic_weights() gives such a model deterministic random weights first when a
// block map is wanted (labelled: Tensor::stored_dtype "synthetic_normal").
//
// Deterministic: the same model and spec give the same weights bit for bit (ties as in
// block_prune.h and models/sparse/prune.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/layer.h"
#include "workloads/pruning/prune_spec.h"

namespace stcsim::workloads {

struct PruneOptions {
  std::vector<std::string> exclude;  // layer names left dense
  std::string exclude_regex;         // layers whose name it finds are left dense ("": none)
  double min_density = 0;            // per-layer floor of the kept weights, 0..1
  bool skip_incompatible = true;     // false: a layer that cannot take the pattern is an error
};

// The note of an attention GEMM under a pruning spec: it has no weight operand.
inline constexpr const char* kNoteNoWeight =
    "attention: both operands are activations, nothing to prune";

struct LayerPruneReport {
  std::string layer, weight;
  std::int64_t rows = 0, cols = 0;  // the weight matrix [N, K]
  bool has_weights = false;
  std::string applied = "dense";         // sparsity label applied (PruneSpec::sparsity_label form)
  std::string note;                      // why (part of) the spec was not applied, "" otherwise
  bool excluded = false;                 // by name (PruneOptions::exclude, exclude_regex)
  bool floored = false;                  // blocks given back to reach the floor
  std::int64_t elements = 0, zeros = 0;  // after pruning (zeros: all bits zero)
  double sparsity = 0;                   // zeros / elements (nominal when !has_weights)
  double magnitude_kept = 1;  // sum of w^2 after / before (1 if all zero; NaN if !has_weights)
  // Block specs: the histogram of nonzero r x c blocks per panel of r rows.
  int block_rows = 0, block_cols = 0;
  std::int64_t blocks_total = 0, blocks_nonzero = 0;
  std::vector<std::int64_t> panel_histogram;  // [j] = panels with j nonzero blocks
};

struct PruneResult {
  Model model;  // the input with pruned weight tensors
  PruneSpec spec;
  std::vector<LayerPruneReport> layers;  // in layer order
  // Over the layers with weights: zeros / elements and the kept share of sum w^2.
  double sparsity = 0, magnitude_kept = 1;
};

// The [N, K] shape of a layer's weight matrix; InputError for impossible layers.
void weight_matrix_shape(const Layer& layer, std::int64_t& rows, std::int64_t& cols);

PruneResult prune_model(const Model& model, const PruneSpec& spec, const PruneOptions& opt = {});

// Normal(0, 1 / fan_in) weights (fan_in = K) from `seed` (splitmix64 + Box-Muller rather
// than std::normal_distribution, whose output differs between standard libraries; the
// values can still differ in the last bit where libm's log/cos differ), for layers without a weight
// tensor; the weight is named "<layer>.weight". InputError when the new tensors would
// exceed max_params in all (a shapes-only Llama-2-7B is 6.7e9).
Model with_synthetic_weights(const Model& model, std::uint64_t seed,
                             std::int64_t max_params = std::int64_t(1) << 28);

}  // namespace stcsim::workloads
