// A sweep specification: the YAML a user writes to explore a design space. Parsed into
// an immutable SweepSpec; nothing here runs anything. The format (docs/sweeps.md):
//
//   schema_version: 1
//   name: l2_vs_dram
//   base: a100                        # preset or config YAML (relative to the spec)
//   set: {dram.efficiency: 0.9}       # fixed overrides at every point
//   vary:                             # one axis per entry; the sweep is their product
//     l2.capacity_kib: [10240, 20480, 40960]              # a list
//     dram.bandwidth_gbps: {from: 1000, to: 4000, factor: 2}  # a range (step or factor)
//     smem_split:                     # a zipped group: its lists advance together
//       sm.smem_kib: [100, 164]
//       sm.max_smem_per_cta_kib: [99, 163]
//     sparsity: [dense, "2:4"]        # run options vary too: base, dtype, sparsity, l2
//   workloads:
//     - gemm: 4096x4096x4096
//     - {trace: bert.trace, name: bert}
//     - {model: ppocrv4_rec, batch: 8, prune: "2:4"}   # traced once per sweep run
//   sparsity: 2:4                     # run options at every point (unless varied)
//   dtype: fp16
//   l2: flush                         # or warm: the L2 between a trace's GEMMs
//   mode: cycle                       # steady: extrapolated once settled; analytic: estimated
//   reference: {l2.capacity_kib: 40960}   # the point speedups are relative to
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stcsim::sweep {

// Keys that are options of `stcsim run` rather than config parameters.
// l2: what the L2 holds between a trace's GEMMs (`stcsim run --l2`): flush, warm or repeat.
// mode: cycle (simulated), steady (`stcsim run --mode steady`: simulated until the CTA
// dispatches repeat, then extrapolated) or analytic (`--mode analytic`, for screening).
inline const std::vector<std::string> kRunOptionKeys = {"base", "dtype", "sparsity", "l2", "mode"};
bool is_run_option(const std::string& key);

// Where a value was written, for error messages ("spec.yaml:12").
struct SpecLocation {
  std::string file;
  int line = 0;
  std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

// One axis of the design space: a single key, or a zipped group of keys whose value
// lists advance together. values[i][k] is the i-th value of keys[k].
struct Axis {
  std::string name;               // the key, or the group's name
  std::vector<std::string> keys;  // "section.key" or a run option
  std::vector<std::vector<std::string>> values;
  std::vector<SpecLocation> where;  // per value index, for errors
};

struct WorkloadSpec {
  std::string name;
  std::string gemm;   // "MxNxK", or
  std::string trace;  // absolute path of a trace file, or
  // a model (`stcsim models`, or a checkpoint / SCALE-Sim path, made absolute), traced
  // with `prune` at `batch` x `tokens` (0: the model's defaults) once per sweep run
  // (model_workloads.h sets `trace` to the file written).
  std::string model;
  std::string prune = "dense";
  std::int64_t batch = 0, tokens = 0;
  std::string dtype;  // empty: the sweep's dtype
  SpecLocation where;
};

struct SweepSpec {
  std::string file;  // the spec's path as given
  std::string name;
  std::string base;                                      // preset name or absolute config path
  std::vector<std::pair<std::string, std::string>> set;  // fixed overrides, in file order
  std::map<std::string, SpecLocation> set_where;
  std::vector<Axis> axes;
  std::vector<WorkloadSpec> workloads;
  std::string dtype = "fp16";
  std::string sparsity = "dense";
  std::string l2 = "flush";
  std::string mode = "cycle";
  std::map<std::string, std::string> reference;  // key -> value; empty: the first point
  SpecLocation reference_where;
};

// Parse a spec; relative paths (base config, traces) resolve against the spec's folder.
// Throws InputError naming file, line and key for any malformed or unknown entry.
// Values of parameters are checked later, per point (validate_points).
SweepSpec parse_sweep_spec_text(const std::string& text, const std::string& file);
SweepSpec parse_sweep_spec_file(const std::string& path);

}  // namespace stcsim::sweep
