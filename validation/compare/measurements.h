// Measurement files written by the GPU harness (validation/harness), schema
// "stcsim-measurements/1" (docs/validation.md lists every field). Reading keeps what the
// comparison needs; anything missing that it needs is an InputError naming file and field.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace stcsim::validation {

// The kernel schedule as the simulator's mapping section names it.
struct MeasuredMapping {
  int cta_m = 0, cta_n = 0, cta_k = 0, warp_m = 0, warp_n = 0, stages = 0, swizzle = 1, split_k = 1;
  std::string smem_layout = "swizzled";
  std::string str() const;  // "128x128x64/64x64 s4 sw8"
};

// Per-preset agreement of the GPU's bits with the functional model (sampled elements).
struct PresetAgreementRecord {
  std::string preset;
  int compared = 0, exact = 0;
  double max_ulp = 0, mean_ulp = 0;
};

struct MeasuredGemm {
  std::string file;  // where it came from
  std::string name, dtype = "fp16", sparsity = "dense", kernel;
  long long m = 0, n = 0, k = 0;
  // The problem the kernel ran, when not the GEMM itself: our kernels take no residues,
  // so the harness pads M, N and K with zeros up to the tile and times that (entry.padding,
  // in the GEMM's own orientation). The simulation runs what ran; reports and the 2:4
  // pairs keep the GEMM's shape.
  long long ran_m = 0, ran_n = 0, ran_k = 0;  // 0: as m, n, k
  double time_us = 0;                         // median
  int runs = 0;
  std::optional<double> sm_clock_mhz;      // observed during this GEMM's timed runs
  std::optional<MeasuredMapping> mapping;  // our kernels only
  bool check_passed = true;
  std::vector<PresetAgreementRecord> numerics;  // our kernels only
  // Block-sparse entries (entry.bsr): the block shape; bsr and CSR entries (entry.csr):
  // the fraction of blocks (weights) pruned.
  int block_rows = 0, block_cols = 0;
  double pruned = 0;
  // CSR entries: the kernel's loop over a stage's nonzeros (entry.csr.gather_loop;
  // files written before it was recorded are of the harness kernel, whose loop is
  // dependent: validation/cuda/csr_spmm.cu). The simulator's mapping.csr_gather_loop.
  std::string csr_gather_loop = "dependent";
  // The L2 the compared time was taken under, as the simulator's --l2 names it: "flush"
  // (the harness's time_us: the L2 flushed before each launch) or "repeat" (back-to-back
  // calls of the same GEMM without a flush: a file's settings.time_us_l2, or
  // timing.warm_us under `validate --time warm`).
  std::string l2 = "flush";
  std::optional<double> warm_us;  // timing.warm_us's median, when the file has it
  std::string warm_us_error;      // why timing.warm_us could not be read (file and field)
  // Set when the entry cannot be compared under the chosen time (no timing.warm_us).
  std::string unusable;

  bool ours() const { return kernel.rfind("stcsim_", 0) == 0; }
  std::string shape() const;  // "MxNxK"
  // Whether what ran differs from the GEMM (a padding equal to it is no padding).
  bool padded() const { return ran_m > 0 && (ran_m != m || ran_n != n || ran_k != k); }
  std::string ran_shape() const;  // the padded "MxNxK" when padded(), else shape()
};

struct MeasurementFile {
  std::string path;
  bool synthetic = false;
  std::string device_name, preset, command;
  std::optional<double> sm_clock_mhz;  // median over the whole run
  std::vector<MeasuredGemm> gemms;
};

MeasurementFile parse_measurements(const nlohmann::json& j, const std::string& path);

// `validate --time warm`: compare each GEMM's timing.warm_us (back-to-back launches of the
// same GEMM, no flush) with a simulation under --l2 repeat; an entry without it is marked
// unusable. Cold (the default) keeps time_us as each file took it.
void use_warm_times(std::vector<MeasurementFile>& files);
// A file, or every *.json and *.csv under a directory (recursively, in path order). CSV
// files are hand-written tables (measurements_csv.h); JSON files of the microbenchmarks'
// schema (stcsim-ubench/1, ubench_compare.h) are left to load_ubench; the result may be
// empty.
std::vector<MeasurementFile> load_measurements(const std::string& file_or_dir);

// The measurement files of a path: the file itself, or every *.json and *.csv under a
// directory, sorted; InputError when the path is missing or a directory holds none.
std::vector<std::string> measurement_paths(const std::string& file_or_dir);

// The JSON files among measurement_paths (all but *.csv), each parsed; InputError when a
// file is not JSON.
std::vector<std::pair<std::string, nlohmann::json>> read_json_files(const std::string& file_or_dir);

// Whether a parsed file is a microbenchmark file (an object whose "schema" is the string
// "stcsim-ubench/1"); any other shape, a non-string schema included, is not.
bool is_ubench_file(const nlohmann::json& j);

// The device that files of one comparison were measured on: all of `device_names` (one
// per file) must be equal, else an InputError naming two; "" for no names.
std::string single_device(const std::vector<std::string>& device_names);

// The simulator preset for a device name: "a100", "h100" (also for H200, whose memory
// differs: the caller says so), "v100"; "" when unknown.
std::string preset_for_device(const std::string& device_name);

}  // namespace stcsim::validation
