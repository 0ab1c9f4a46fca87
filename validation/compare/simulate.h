// Runs the simulator on measured GEMMs: one child `stcsim run` process per GEMM (SystemC
// allows one simulation per process), several at a time, each writing its stats.json to
// its own directory, which stays for inspection.
#pragma once
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "validation/compare/measurements.h"

namespace stcsim::validation {

// `stcsim run` arguments that reproduce a measured GEMM on `arch`: the same shape,
// dtype and sparsity (2:4 kernels run with --sparsity 2:4 --no-dense-baseline, so the
// speedup is taken against the measured dense kernel's own simulation); for our kernels
// the recorded mapping pinned with -p mapping.*; vendor libraries get the simulator's
// chosen mapping; block-sparse entries run the block-skipping kernel (--block RxC@S), CSR
// entries the CSR SpMM (--unstructured S --unstructured-kernel csr). clock_mhz, when
// given, sets gpu.measured_clock_mhz (the observed SM clock: the op runs and is timed at
// it, no power settling on top); `overrides` are appended as -p.
// Returns false with `why` when the GEMM cannot be simulated (an unknown kernel, a sparse
// entry without its sparsity).
bool simulation_args(const MeasuredGemm& g, const std::string& arch,
                     std::optional<double> clock_mhz, const std::vector<std::string>& overrides,
                     std::vector<std::string>& args, std::string& why);

// The SM clock to simulate a measured GEMM at: the one observed during its own runs, else
// the file's median; none (the preset's clock) with `preset_clock` or when none was read.
std::optional<double> observed_clock(const MeasurementFile& f, const MeasuredGemm& g,
                                     bool preset_clock);

// The folder of a GEMM's run under a comparison's sim/: "<index>_<kernel>_<MxNxK>".
std::string sim_folder_name(std::size_t index, const MeasuredGemm& g);

struct SimJob {
  std::vector<std::string> args;  // after the binary, without --out / -q
  std::string out_dir;
  bool ubench = false;  // a `stcsim ubench` run: its result is out_dir/ubench.json
  std::string source;   // what it simulates, for errors: "FILE: gemm 'NAME' (kernel, MxNxK)"
};

struct SimResult {
  double seconds = 0, cycles = 0;
  double clock_mhz = 0;  // the clock `seconds` are at: settled or measured, else the preset's
  std::string mapping;   // as the simulator resolved it, "256x128x64/64x64 s3 sw8"
  int ctas_per_sm = 0;
  std::string numerics_preset;  // tensor_core.numerics of the resolved config
  double dram_read_bytes = 0;   // the op's DRAM reads
  std::string instruction;      // the op's tensor-core instruction, "fp16 wgmma m64n256k16"
  int num_sms = 0;              // gpu.num_sms of the resolved config
  nlohmann::json ubench;        // a ubench job's stcsim-ubench/1 document
};

// Runs `binary` with each job's args plus `--out out_dir -q`, at most `parallel` at once.
// Each run is the sweeps' child (sim/sweep/child_process.h), its output in out_dir/log.txt.
// Throws InputError naming the job and quoting its log when a run fails. `on_done`, when
// given, is called after each finished run with the runs done and those still running.
using SimProgress = std::function<void(std::size_t done, int running)>;
std::vector<SimResult> run_simulations(const std::string& binary, const std::vector<SimJob>& jobs,
                                       int parallel, const SimProgress& on_done = {});

// Reads what the comparison needs from a stats.json (first op).
SimResult read_stats(const std::string& stats_json_path);

}  // namespace stcsim::validation
