// Measurement tables written by hand, one GEMM per row: the figures a user copies from a
// paper, a vendor's profiler or their own timing script, without the harness's JSON
// (docs/validation.md, "A hand-written measurement file"). A header row names the columns
// in any order; required: device, name, m, n, k, kernel, time_us; optional: dtype,
// sparsity, sm_clock_mhz, runs, preset, mapping ("128x128x64/64x64 s3 sw1"), block
// ("32x32"), pruned (the fraction of blocks or weights pruned). Lines starting with '#'
// and blank lines are skipped; a field holding a comma is double-quoted.
#pragma once
#include <istream>
#include <optional>
#include <string>

#include "validation/compare/measurements.h"

namespace stcsim::validation {

// One file: every row on the same device. InputError naming the file, the line and the
// column on anything malformed: a missing required column, an unknown column, a row with
// too few or too many fields, a number that is not one, a second device.
MeasurementFile parse_measurements_csv(std::istream& in, const std::string& path);

// A mapping in the form validate prints ("128x128x64/64x64 s3 sw1", "sw" and a trailing
// " split2" optional); nullopt when `text` is not one.
std::optional<MeasuredMapping> parse_mapping_text(const std::string& text);

}  // namespace stcsim::validation
