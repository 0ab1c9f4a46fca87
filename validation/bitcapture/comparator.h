// The offline comparison of a bit capture with the functional model: every record of
// every group replayed (replay.h) under each accumulation preset, its D compared bit for
// bit with what the GPU wrote. Per preset and group: records and elements that match,
// the same per operand category, and the first mismatches with their operands.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/bitcapture/capture_file.h"

namespace stcsim::validation::bits {

struct Mismatch {
  std::string group, category;
  int record = 0, row = 0, col = 0;         // the first differing element of the record's D
  std::vector<std::uint32_t> a_row, b_col;  // its operands (bit patterns, k order)
  std::uint32_t c = 0, captured = 0, model = 0;
  int elements = 0;  // differing elements in this record
};

struct Tally {
  std::int64_t records = 0, exact_records = 0, elements = 0, exact_elements = 0;
  void add(const Tally& o);
};

struct GroupResult {
  std::string group;
  Tally all;
  std::vector<Tally> by_category;  // operand_gen.h's Category order
};

struct PresetResult {
  std::string preset;
  Tally all;
  std::vector<GroupResult> groups;
  std::vector<Mismatch> first;  // at most max_mismatches per group
};

// Throws std::runtime_error for a record whose category word is out of range and
// std::invalid_argument for an unknown preset.
std::vector<PresetResult> compare_capture(const Capture& c, const std::vector<std::string>& presets,
                                          int max_mismatches);

nlohmann::json to_json(const std::vector<PresetResult>& r);
// A table per preset (groups x categories, exact records / records) and the mismatches.
void print_report(std::ostream& os, const std::vector<PresetResult>& r);

}  // namespace stcsim::validation::bits
