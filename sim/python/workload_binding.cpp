// stcsim.model_gemms() and stcsim.trace_gemms(): the GEMMs a model lowers to (pruned as
// `--prune` would) or a trace holds, in process, through the readers and the lowering
// `stcsim run --model/--trace` uses, to look at a workload before simulating it.
#include <optional>

#include "models/common/dtype.h"
#include "sim/driver/workload_ops.h"
#include "sim/python/bindings.h"

namespace py = pybind11;

namespace stcsim::python {

namespace {

nlohmann::json ops_json(const std::vector<GemmOp>& ops) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& op : ops) {
    nlohmann::json j = {{"name", op.name},
                        {"m", op.m},
                        {"n", op.n},
                        {"k", op.k},
                        {"batch", op.batch},
                        {"dtype", to_string(op.dtype)},
                        {"pattern", op.pattern()},
                        {"weight_density", op.weight_density()},
                        {"pruning_note", op.pruning_note},
                        {"causal", causal_name(op.causal)}};
    out.push_back(j);
  }
  return out;
}

// As `stcsim run --model NAME --prune SPEC [--batch B] [--seq S]`: the model's default
// lowering, with batch and sequence length replaced when given (lower_model checks them).
std::vector<GemmOp> lowered_model(const std::string& model, std::optional<std::int64_t> batch,
                                  std::optional<std::int64_t> seq, const std::string& prune,
                                  const std::string& dtype) {
  const workloads::Model m = load_any_model(model);
  // What the loader did not lower, as `stcsim run` prints it: a Python warning each.
  for (const auto& note : m.notes) {
    const std::string text = m.name + ": " + note;
    if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) != 0) throw py::error_already_set();
  }
  ModelRunOptions opt;
  opt.lowering = default_lowering(model);
  if (batch) opt.lowering.batch = *batch;
  if (seq) opt.lowering.seq_len = *seq;
  opt.dtype = parse_dtype(dtype);
  auto ops = model_ops(m, prune, opt, "");
  for (auto& op : ops) op.variant = prune;
  return ops;
}

}  // namespace

void bind_workloads(py::module_& m) {
  m.def(
      "model_gemms",
      [](const std::string& model, std::optional<std::int64_t> batch,
         std::optional<std::int64_t> seq, const std::string& prune, const std::string& dtype) {
        return json_to_python(ops_json(lowered_model(model, batch, seq, prune, dtype)));
      },
      py::arg("model"), py::arg("batch") = py::none(), py::arg("seq") = py::none(),
      py::arg("prune") = "dense", py::arg("dtype") = "fp16",
      "The GEMMs of a model (`stcsim models`, or a checkpoint path) as `stcsim run --model` "
      "lowers and prunes them: name, m, n, k, batch, dtype, pattern, weight_density, "
      "pruning_note, causal (none, output or a: attention's scores and context GEMMs)");
  m.def(
      "trace_gemms",
      [](const std::string& path, const std::string& dtype) {
        return json_to_python(ops_json(read_any_trace(path, parse_dtype(dtype))));
      },
      py::arg("path"), py::arg("dtype") = "fp16",
      "The GEMMs of a trace file (format 0 or 1); `dtype` for lines that give none");
}

}  // namespace stcsim::python
