// The microbenchmarks (validation/ubench, schema "stcsim-ubench/1") against the
// simulator running the same programs: `stcsim ubench` (models/ubench) runs each CUDA
// microbenchmark on the model, with its launch shape, addresses and measurement, and
// writes the same schema. Each measured (name, metric) is compared with the simulated
// one, each side the best over the benchmark's configurations (warps or warpgroups per
// SM): the highest throughput or bandwidth, the lowest latency. A figure the simulation
// does not yield (a unit the preset lacks, or no such benchmark) is listed with why.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "validation/compare/simulate.h"

namespace stcsim::validation {

struct UbenchFigure {
  std::string file, name, metric, unit, what;
  double value = 0;
  nlohmann::json params;
};

struct UbenchFile {
  std::string path, device_name;
  bool synthetic = false;
  std::vector<UbenchFigure> results;
};

// Every stcsim-ubench/1 file of a path (a file, or every *.json under a directory); files
// of other schemas are skipped. InputError on a malformed ubench file.
std::vector<UbenchFile> load_ubench(const std::string& file_or_dir);

struct UbenchRow {
  std::string name, metric, unit;
  double measured = 0;  // the best over the benchmark's configurations
  int configurations = 0;
  bool simulated = false;
  std::string workload, why_not;  // the simulated program, or why there is none
  double predicted = 0;           // in `unit`, after the simulation
  // The SM clock the GPU ran the best configuration at, where the benchmark probed it
  // (params.sm_clock_mhz, the mainloop anatomy: median of its samples' probes); 0: not
  // probed. The model runs at its preset's clock: a figure measured under a lower clock
  // reads faster in the model by about their ratio where the SM bounds it.
  double measured_clock_mhz = 0;
  double error_percent() const {
    return measured > 0 ? 100.0 * (predicted - measured) / measured : 0;
  }
};

// One row per (name, metric) over all files.
std::vector<UbenchRow> ubench_rows(const std::vector<UbenchFile>& files);

// The `stcsim ubench` run that simulates the microbenchmarks yielding the rows' figures
// on `arch` (-p overrides appended), writing into out_dir.
SimJob ubench_job(const std::vector<UbenchRow>& rows, const std::string& arch,
                  const std::vector<std::string>& overrides, const std::string& out_dir);
// Each row's prediction from that run's stcsim-ubench/1 document (`simulated` false, with
// why, for the figures it does not yield).
void set_predictions(std::vector<UbenchRow>& rows, const nlohmann::json& simulated);

std::string format_ubench(const std::vector<UbenchRow>& rows);
nlohmann::json ubench_json(const std::vector<UbenchRow>& rows);

}  // namespace stcsim::validation
