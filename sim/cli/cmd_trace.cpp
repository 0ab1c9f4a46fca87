// `stcsim trace`: a model lowered to GEMMs and pruned, written as a trace v1 (with the
// pruned weights, N:M metadata and block maps in its binary payload).
#include <cstdio>
#include <iostream>
#include <memory>

#include "models/common/dtype.h"
#include "sim/cli/commands.h"
#include "sim/cli/option_values.h"
#include "sim/core/input_error.h"
#include "sim/driver/workload_ops.h"
#include "workloads/pruning/prune_spec.h"
#include "workloads/trace/trace_builder.h"

namespace stcsim {

namespace {
struct TraceOptions {
  std::string model, prune = "dense", out, dtype = "fp16", image, exclude, min_density;
  std::string weight_layout = "out_in";
  std::string batch, seq;
  bool no_payload = false;
};
}  // namespace

Command add_trace_command(CLI::App& app) {
  auto o = std::make_shared<TraceOptions>();
  auto* sub = app.add_subcommand(
      "trace",
      "Lower a model to GEMMs, prune its weights and write a trace v1 (workloads/README.md)");
  sub->add_option("--model", o->model, "a model (`stcsim models`) or a checkpoint path")
      ->required();
  sub->add_option("--prune", o->prune,
                  "dense | N:M (2:4, 1:4, 2:8, 4:8) | block:RxC@SPARSITY[+N:M][/global] (e.g. "
                  "block:32x32@0.75)")
      ->capture_default_str();
  sub->add_option("--out", o->out, "trace file to write (the payload goes to FILE.bin)")
      ->required();
  sub->add_option("--dtype", o->dtype, "dtype of the GEMMs: " + dtype_names())
      ->capture_default_str();
  sub->add_option("--batch", o->batch, "samples (default 1)");
  sub->add_option("--seq,--tokens", o->seq,
                  "tokens per sample of the sequence (Linear) layers, M = batch x tokens "
                  "(default: the model's; 128 for a checkpoint)");
  sub->add_option("--image", o->image,
                  "input image size HxW for conv layers (default: the model's)");
  sub->add_flag("--no-payload", o->no_payload, "write shapes and sparsity labels only");
  sub->add_option("--weight-layout", o->weight_layout,
                  "a weight file without a graph: how its 2-D tensors store a Linear layer, "
                  "out_in (PyTorch) or in_out (Paddle's nn.Linear, Keras' Dense)")
      ->capture_default_str();
  sub->add_option("--exclude", o->exclude,
                  "layers whose name this regular expression finds (ECMAScript) stay dense");
  sub->add_option("--min-density", o->min_density,
                  "each pruned layer keeps at least this fraction of its weights (0..1); block "
                  "pruning never removes a layer's last block either way");
  return [o, sub] {
    workloads::PruneOptions po;
    if (sub->count("--exclude")) po.exclude_regex = regex_option("--exclude", o->exclude);
    if (sub->count("--min-density"))
      po.min_density = fraction_option("--min-density", o->min_density);
    const workloads::Model model = load_any_model(o->model, parse_weight_layout(o->weight_layout));
    for (const auto& note : model.notes)
      std::cerr << "stcsim: note: " << model.name << ": " << note << "\n";
    workloads::LoweringOptions low = default_lowering(o->model);
    // The same ranges as `stcsim run --model`.
    if (sub->count("--batch")) low.batch = int_option("--batch", o->batch, 1, 1 << 20);
    if (sub->count("--seq")) low.seq_len = int_option("--seq", o->seq, 1, 1 << 24);
    if (!o->image.empty()) {
      long long h = 0, w = 0;
      if (std::sscanf(o->image.c_str(), "%lldx%lld", &h, &w) != 2 || h <= 0 || w <= 0)
        throw InputError("--image: expected HxW, e.g. 224x224, got '" + o->image + "'");
      low.image_h = h;
      low.image_w = w;
    }
    print_tokens_line(model, low);
    ModelRunOptions mo;
    mo.lowering = low;
    mo.dtype = parse_dtype(o->dtype);
    mo.prune = po;
    const auto built = build_model_trace(model, o->prune, mo, !o->no_payload);
    const auto written = workloads::write_trace(o->out, built.trace);
    std::cout << "Wrote " << o->out << ": " << written.ops.size() << " ops of " << model.name
              << (model.real_weights ? " (real weights)" : " (shapes only: synthetic)");
    if (!written.payload_file.empty())
      std::cout << ", payload " << written.payload_bytes << " bytes";
    if (seeds_synthetic_weights(model, o->prune))
      std::cout << "; its block maps come from seeded Normal(0, 1/K) weights, not trained ones";
    std::cout << "\nPruning " << built.pruning.spec.str() << ": sparsity " << built.pruning.sparsity
              << ", squared magnitude kept " << built.pruning.magnitude_kept << "\n";
    for (const auto& l : built.pruning.layers)
      std::cout << "  " << l.layer << "\t" << l.applied << "\tsparsity " << l.sparsity << "\tkept "
                << l.magnitude_kept << (l.note.empty() ? "" : "\t(" + l.note + ")") << "\n";
    return 0;
  };
}

}  // namespace stcsim
