// How the harness loses nothing: every measured entry is written as it is measured, each
// in its own file under a parts folder (write to a temporary name, flush, rename: a reader
// never sees half a file, and a run killed at any point keeps every finished entry), and
// the measurement file is re-assembled from the parts after each kernel family, again
// atomically. `stcsim_validate_gpu --merge-only` rebuilds it after a killed run.
// No CUDA here: the writer is tested on the CPU (tests/validation/test_result_writer.cpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stcsim::validation {

// Writes `text` to `path` through `path`.tmp.<pid> and rename(2); creates parent folders.
// Throws std::runtime_error naming the path when any step fails.
void write_file_atomic(const std::string& path, const std::string& text);

// The time now in UTC, strftime `format` (ISO 8601 by default): what every file records.
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ");

// The parts folder of a measurement file: "<out>.parts" beside it.
std::string parts_dir_for(const std::string& out_json);

// One part: what one kernel family produced for one GEMM. Exactly one of `entry` (a
// measured gemms[] element) or `skipped` ({name, kernel, why}) is set; `baseline` is the
// vendor library's status when the kernel is a vendor library ("" otherwise).
struct Part {
  int gemm_index = 0;
  std::string kernel;  // dense, sp24, bsr, csr, cublas, cublaslt, cusparselt
  nlohmann::json entry, skipped;
  std::string baseline;
  bool check_failed = false;
};
// File name "g<index, 5 digits>_<kernel>.json": parts sort in GEMM order.
std::string part_file_name(int gemm_index, const std::string& kernel);
void write_part(const std::string& parts_dir, const Part& p);
bool part_exists(const std::string& parts_dir, int gemm_index, const std::string& kernel);
// Every readable part in file-name order; unreadable files (there should be none) are
// reported in `bad`.
std::vector<Part> read_parts(const std::string& parts_dir, std::vector<std::string>* bad = nullptr);

// The measurement document: `header` (schema, command, device, settings...) plus gemms[],
// skipped[] and baselines{} from the parts. device.sm_clock_mhz is summarised over the
// entries' own clock medians (min, max, median of medians, "entries": how many).
nlohmann::json merge_parts(const nlohmann::json& header, const std::vector<Part>& parts);

}  // namespace stcsim::validation
