// The microbenchmarks (validation/ubench, schema "stcsim-ubench/1") against the
// simulator, where the simulator can run a workload that measures the same thing:
//   mma.sync m16n8k16 throughput  <- a dense fp16 GEMM large enough to fill every SM
//                                    for many waves (4096^3) on the sm80 multistage
//                                    kernel (mma.sync): 2MNK / (cycles x SMs);
//   mma.sp m16n8k32 throughput    <- the same GEMM 2:4-sparse (dense-equivalent flops);
//   wgmma m64nNk16 / wgmma.sp m64nNk32 throughput <- the same GEMMs on the warp-specialized
//                                    kernel with cta_n = N (wgmma m64nN);
//   dram_read bandwidth           <- a weight-streaming GEMM (M = 16, N = K = 16384)
//                                    whose time is reading W: its DRAM reads / time.
// The measured figure is the best over the benchmark's configurations (warps per SM).
// These are counterparts, not the same programs: a GEMM's rate includes its prologue and
// epilogue, and the stream reads through the GEMM's tiles, so a gap of a few percent is
// expected of a correct model. The simulation must report the instruction measured, or
// the row is not compared. Every other figure (latencies, ldmatrix, ld.shared, cp.async,
// bulk copy, L2) is listed as having no simulated counterpart yet, with why.
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
  std::string workload, why_not;   // the simulated counterpart, or why there is none
  std::vector<std::string> args;   // `stcsim run` arguments of the counterpart
  std::string expect_instruction;  // what the counterpart's stats must report (op.instruction)
  double predicted = 0;            // in `unit`, after the simulation
  double error_percent() const {
    return measured > 0 ? 100.0 * (predicted - measured) / measured : 0;
  }
};

// One row per (name, metric) over all files, with its counterpart's arguments when it
// has one (arch, observed clock and -p overrides as for the GEMMs).
std::vector<UbenchRow> ubench_rows(const std::vector<UbenchFile>& files, const std::string& arch,
                                   std::optional<double> clock_mhz,
                                   const std::vector<std::string>& overrides);
// The row's figure from its counterpart's simulation.
void set_prediction(UbenchRow& row, const SimResult& sim);

std::string format_ubench(const std::vector<UbenchRow>& rows);
nlohmann::json ubench_json(const std::vector<UbenchRow>& rows);

}  // namespace stcsim::validation
