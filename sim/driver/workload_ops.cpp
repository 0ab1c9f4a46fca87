#include "sim/driver/workload_ops.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "models/numerics/float_format.h"
#include "models/sparse/bsr.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"
#include "sim/core/input_file.h"
#include "sim/driver/gemm_list.h"
#include "workloads/loaders/load_weights.h"
#include "workloads/loaders/scalesim_topology.h"
#include "workloads/pruning/prune_spec.h"
#include "workloads/real_models/onnx_graph.h"
#include "workloads/real_models/real_models.h"
#include "workloads/trace/trace_builder.h"
#include "workloads/zoo/zoo.h"

namespace stcsim {

namespace {

// The logical (uncompressed, pruned) weight a trace op carries, decoded to fp32.
std::shared_ptr<const std::vector<float>> trace_weights(const workloads::TraceOp& t) {
  if (t.values_dtype.empty()) return nullptr;
  std::vector<std::uint32_t> bits;
  const std::int64_t rows = std::int64_t(t.batch) * t.n, cols = t.k;
  if (!t.metadata_format.empty()) {
    bits = sparse::uncompress(t.compressed());
  } else if (t.has_block_map()) {
    const sparse::Bsr b = t.bsr();
    const auto padded = sparse::from_bsr(b);  // whole blocks: crop to [rows, cols]
    bits.resize(std::size_t(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r)
      std::copy_n(&padded[std::size_t(r * b.cols)], cols, &bits[std::size_t(r * cols)]);
  } else {
    bits = t.values;
  }
  const auto fmt =
      t.values_dtype == "fp16" ? numerics::FloatFormat::FP16 : numerics::FloatFormat::FP32;
  auto out = std::make_shared<std::vector<float>>(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) (*out)[i] = float(numerics::decode(fmt, bits[i]));
  return out;
}

}  // namespace

GemmOp op_from_trace(const workloads::TraceOp& t, const std::string& prefix) {
  GemmOp op;
  op.name = prefix + t.name;
  op.m = t.m;
  op.n = t.n;
  op.k = t.k;
  op.batch = t.batch;
  op.conv = t.conv;
  op.causal = t.causal == "output" ? Causal::Output : t.causal == "a" ? Causal::A : Causal::None;
  if (!t.row_op.empty()) op.row_op = parse_row_op(t.row_op);
  op.activation_b = op.causal != Causal::None || op.is_row_op();
  op.dtype = parse_dtype(t.dtype);
  op.weights = trace_weights(t);
  const auto spec = workloads::PruneSpec::parse_label(t.sparsity);
  using Kind = workloads::PruneSpec::Kind;
  if (spec.kind == Kind::Nm) op.sparsity = {spec.nm.n, spec.nm.m};
  if (spec.kind == Kind::Block) {
    op.weight_pattern =
        "block:" + std::to_string(spec.block_rows) + "x" + std::to_string(spec.block_cols);
    if (spec.inner_nm) op.sparsity = {spec.nm.n, spec.nm.m};
    if (t.has_block_map()) {
      // The trace's real block map (BSR zero-padded to whole blocks): its block rows
      // cover batch * n rows, its columns K.
      auto map = std::make_shared<BlockMap>();
      map->r = spec.block_rows;
      map->c = spec.block_cols;
      map->row_ptr.assign(t.row_ptr.begin(), t.row_ptr.end());
      map->col_idx.assign(t.col_idx.begin(), t.col_idx.end());
      map->block_rows = std::int64_t(map->row_ptr.size()) - 1;
      map->block_cols = (t.k + map->c - 1) / map->c;
      op.block_map = std::move(map);
    }
  }
  return op;
}

std::vector<GemmOp> read_any_trace(const std::string& path, Dtype default_dtype) {
  std::istringstream in(read_input_file(path, "trace file"));
  std::string line;
  while (std::getline(in, line)) {
    const auto p = line.find_first_not_of(" \t");
    if (p == std::string::npos || line[p] == '#') continue;
    if (line.compare(p, 14, "stcsim-trace 1") == 0) {
      std::vector<GemmOp> ops;
      const workloads::Trace trace = workloads::read_trace(path);
      for (const auto& t : trace.ops) {
        ops.push_back(op_from_trace(t));
        ops.back().variant = trace.prune;  // "" when the trace does not say
      }
      return ops;
    }
    break;
  }
  return read_gemm_trace(path, default_dtype);  // format 0, or its error for a bad header
}

WeightLayout parse_weight_layout(const std::string& text) {
  if (text == "out_in") return WeightLayout::OutIn;
  if (text == "in_out") return WeightLayout::InOut;
  throw InputError("--weight-layout: expected out_in (PyTorch) or in_out (Paddle, Keras), got '" +
                   text + "'");
}

namespace {

// A 2-D weight tensor stored [in, out], as [out, in].
void transpose_to_out_in(workloads::Tensor& t) {
  const std::int64_t in = t.shape[0], out = t.shape[1];
  std::vector<float> d(t.data.size());
  for (std::int64_t i = 0; i < in; ++i)
    for (std::int64_t o = 0; o < out; ++o)
      d[std::size_t(o * in + i)] = t.data[std::size_t(i * out + o)];
  t.data = std::move(d);
  t.shape = {out, in};
}

}  // namespace

workloads::Model load_any_model(const std::string& name, WeightLayout layout) {
  const auto has_graph = [&](const std::string& what) {
    if (layout != WeightLayout::OutIn)
      throw InputError("--weight-layout in_out: '" + name + "' is " + what +
                       ", whose layers say how they use each weight; the option is for weight "
                       "files without a graph (.npy, .safetensors, a folder of .npy)");
  };
  const auto real = workloads::real_model_names();
  if (std::find(real.begin(), real.end(), name) != real.end()) {
    has_graph("a real model");
    return workloads::load_real_model(name);
  }
  const auto zoo = workloads::zoo_model_names();
  if (std::find(zoo.begin(), zoo.end(), name) != zoo.end()) {
    has_graph("a zoo model");
    return workloads::zoo_model(name);
  }
  if (!std::filesystem::exists(name)) {
    std::string all;
    for (const auto& n : real) all += (all.empty() ? "" : ", ") + n;
    for (const auto& n : zoo) all += ", " + n;
    throw InputError("unknown model '" + name + "' (models: " + all +
                     "; or a checkpoint file path, or a SCALE-Sim topology .csv)");
  }
  workloads::Model m;
  const std::filesystem::path p(name);
  if (p.extension() == ".onnx" && !std::filesystem::is_directory(p)) {
    has_graph("an ONNX graph");
    // A graph: lowered by walking its nodes (Conv, MatMul, Gemm), not by tensor rank.
    m = workloads::lower_onnx_graph(name);
    m.name = p.stem().string();
    return m;
  }
  if (p.extension() == ".csv" && !std::filesystem::is_directory(p)) {
    has_graph("a SCALE-Sim topology");
    return workloads::load_scalesim_topology(name);  // layer shapes, no weights
  }
  // "weights/" names the model "weights", as "weights.npy" would.
  const std::filesystem::path named = p.has_filename() ? p : p.parent_path();
  m.name = named.stem().string();
  m.source = name;
  m.real_weights = true;
  for (auto& t : workloads::load_weights(name)) {
    if (t.shape.size() != 2) {
      // Biases and norms (1-D) are not layers; anything larger is said, never dropped.
      if (t.shape.size() > 2) {
        std::string dims;
        for (auto d : t.shape) dims += (dims.empty() ? "" : "x") + std::to_string(d);
        m.notes.push_back("tensor '" + t.name + "' [" + dims +
                          "] not lowered: a weight file without a graph runs its 2-D tensors "
                          "as Linear layers only (an .onnx graph lowers its Conv nodes)");
      }
      continue;
    }
    if (layout == WeightLayout::InOut) transpose_to_out_in(t);
    workloads::Layer l;
    l.name = t.name;
    l.kind = workloads::LayerKind::Linear;
    l.out_features = t.shape[0];
    l.in_features = t.shape[1];
    l.weight = t.name;
    m.layers.push_back(l);
    m.weights[t.name] = std::move(t);
  }
  if (m.layers.empty()) throw InputError(name + ": no 2-D weight tensor to run as a Linear layer");
  return m;
}

void print_tokens_line(const workloads::Model& model, const workloads::LoweringOptions& low) {
  int sequence = 0, attention = 0, other = 0, row_ops = 0;
  for (const auto& l : model.layers) {
    if (l.kind == workloads::LayerKind::RowOp)
      ++row_ops;
    else if (!l.has_weight_operand())
      ++attention;
    else if (l.kind == workloads::LayerKind::Linear && !(l.in_h > 0 && l.in_w > 0))
      ++sequence;
    else
      ++other;
  }
  if (sequence == 0 && attention == 0) return;
  std::cerr << "stcsim: " << model.name << ": " << sequence
            << " sequence layer(s) at M = batch x tokens = " << low.batch << " x " << low.seq_len
            << " = " << low.batch * low.seq_len << " (--batch, --tokens)";
  if (attention > 0)
    std::cerr << "; " << attention << " attention GEMM(s) of " << low.seq_len
              << " tokens, batch x heads of them";
  if (other > 0) std::cerr << "; " << other << " other layer(s) at M = batch x their own positions";
  if (row_ops > 0)
    std::cerr << "; " << row_ops << " row op(s) (softmax, norms, activations, adds, embedding)";
  std::cerr << "\n";
}

workloads::LoweringOptions default_lowering(const std::string& name) {
  const auto zoo = workloads::zoo_model_names();
  if (std::find(zoo.begin(), zoo.end(), name) != zoo.end())
    return workloads::zoo_lowering_defaults(name);
  workloads::LoweringOptions o;
  o.seq_len = 128;  // checkpoints: 128 tokens per sequence unless told otherwise
  return o;
}

bool seeds_synthetic_weights(const workloads::Model& model, const std::string& spec) {
  return workloads::PruneSpec::parse(spec).kind == workloads::PruneSpec::Kind::Block &&
         !model.real_weights;
}

workloads::BuiltTrace build_model_trace(const workloads::Model& model, const std::string& spec,
                                        const ModelRunOptions& opt, bool payload) {
  workloads::TraceBuildOptions tb;
  tb.dtype = to_string(opt.dtype);
  // Shapes-only models carry an N:M pattern as a label (no values to prune): the timing
  // model needs only the label. Block pruning needs a block map (from the payload) to
  // set each CTA's work on the block-skipping kernel: a shapes-only model gets seeded
  // synthetic weights for it rather than running dense under a block label.
  const workloads::PruneSpec ps = workloads::PruneSpec::parse(spec);
  const bool block = ps.kind == workloads::PruneSpec::Kind::Block;
  const bool synthetic = seeds_synthetic_weights(model, spec);
  tb.payload = payload || block;
  workloads::Model seeded;
  if (synthetic) try {
      seeded = workloads::with_synthetic_weights(model, opt.synthetic_seed);
    } catch (const InputError& e) {
      throw InputError("--prune " + spec + ": the shapes-only model '" + model.name +
                       "' has no weights to prune in blocks, and " + e.what() +
                       " (N:M pruning needs no values; or give a checkpoint)");
    }
  return workloads::build_trace(synthetic ? seeded : model, opt.lowering, ps, opt.prune, tb);
}

std::vector<GemmOp> model_ops(const workloads::Model& model, const std::string& spec,
                              const ModelRunOptions& opt, const std::string& prefix) {
  const auto built = build_model_trace(model, spec, opt, false);
  const bool synthetic = seeds_synthetic_weights(model, spec);
  std::vector<GemmOp> ops;
  for (std::size_t i = 0; i < built.trace.ops.size(); ++i) {
    ops.push_back(op_from_trace(built.trace.ops[i], prefix));
    ops.back().pruning_note = built.pruning.layers[i].note;
    ops.back().synthetic_weights = synthetic && built.pruning.layers[i].block_rows > 0;
    ops.back().activation_b = built.gemms[i].b_role != workloads::kRoleWeight;
  }
  return ops;
}

}  // namespace stcsim
