// The sweeps' area model of the tensor cores: Yosys cell counts of the RTL's units
// (rtl/reports/area_cells.csv, made by rtl/synth/area_table.sh) fitted to per-unit costs,
// then scaled by how many of each unit a tensor-core configuration has. Every varied
// tensor-core parameter that adds or removes hardware moves it: the multipliers (from the
// initiation intervals), the dot unit's block width (the numerics preset), 2:4 support,
// the B-operand and metadata path widths. Generic gate cells, not a layout: a proxy for
// ranking designs against each other (docs/rtl.md, "Area model").
#pragma once
#include <string>
#include <vector>

namespace stcsim::sweep {

// One synthesized unit: "dense_dot", {"BLOCK=8", "EXTRA=1"}, 22345 cells.
struct SynthesizedUnit {
  std::string unit;
  std::vector<std::string> parameters;
  double cells = 0;
};

// The rows of a cell table in area_table.sh's CSV form; std::invalid_argument naming
// `source` and the line on anything else.
std::vector<SynthesizedUnit> parse_cell_table(const std::string& csv, const std::string& source);

// Per-unit costs in cells, least-squares fits over the table's rows:
//   dense_dot(BLOCK) = per_dot_unit + per_lane x BLOCK
//   stc_operand_stage(BITS) = per_stage + per_stage_bit x BITS
//   one 2:4 group = sp24_operand_select + sp24_meta_decode
struct AreaCoefficients {
  double per_lane = 0, per_dot_unit = 0;
  double per_sparse_group = 0;
  double per_stage = 0, per_stage_bit = 0;
};
AreaCoefficients fit_area_coefficients(const std::vector<SynthesizedUnit>& table);
// The fit of the committed table (embedded in the binary).
const AreaCoefficients& yosys_area_coefficients();

// One tensor-core configuration, per sub-core pipe unless said otherwise.
struct TensorCoreDesign {
  double sms = 0, sub_cores = 0;  // over the GPU
  double lanes = 0;               // multipliers: fp16 products per cycle (dense rate)
  int block = 8;                  // logical K per dot unit (the numerics preset's block)
  bool sparse_24 = false;         // 2:4 operand selection (sparse_patterns holds 2:4)
  double b_bytes_per_cycle = 0;   // B-operand path (0: not modelled by the preset)
  double metadata_bits_per_cycle = 0;
};

// Cells over the GPU, by part.
struct TensorCoreArea {
  double dot_units = 0, sparse_select = 0, b_path = 0, metadata_path = 0;
  double total() const { return dot_units + sparse_select + b_path + metadata_path; }
};
TensorCoreArea tensor_core_area(const TensorCoreDesign& d, const AreaCoefficients& c);

}  // namespace stcsim::sweep
