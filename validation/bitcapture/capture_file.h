// The bit-capture file, schema "stcsim-bitcapture/1": the raw input and output bits of
// single tensor-core instructions run on a GPU (stcsim_bitcapture), replayed offline
// through the functional model by stcsim_bitcompare.
//
// One file: a header of one line of JSON ending in '\n', then every group's records back
// to back, little-endian 32-bit words. A record is
//   [category][a words][b words][c words][e words][d words]
// in the registers the instruction read and wrote (instruction_layout.h says where each
// element sits), so the file holds what the hardware saw, not our reading of it: a wrong
// layout assumption shows up as mismatches of the "exact" category, and can be fixed
// offline without another GPU run.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/bitcapture/instruction_layout.h"

namespace stcsim::validation::bits {

struct CaptureGroup {
  GroupSpec spec;
  int records = 0;
  std::vector<std::uint32_t> words;  // records * spec.record_words()

  std::uint32_t* record(int i) { return words.data() + std::size_t(i) * spec.record_words(); }
  const std::uint32_t* record(int i) const {
    return words.data() + std::size_t(i) * spec.record_words();
  }
};

struct Capture {
  // schema, synthetic, command, created_utc, device, categories, groups (derived from
  // `groups` when written), layout notes; whatever else the writer adds is kept.
  nlohmann::json header = nlohmann::json::object();
  std::vector<CaptureGroup> groups;
};

// The header as written: `c.header` plus schema, categories and groups[] (name,
// instruction, ptx, dtype, m, n, k, records, record_words, fields, offset_bytes).
nlohmann::json header_json(const Capture& c);

// Writes through a temporary name and rename (a reader never sees half a file).
void write_capture(const std::string& path, const Capture& c);
// Throws std::runtime_error naming the file on a bad schema, an unknown group or a size
// that does not match the header.
Capture read_capture(const std::string& path);

// The part of a capture worth keeping in a repository: of each group, the first
// `per_category` records of each operand category (record i's category is its first
// word), fewer for groups whose records are large, so that a group's kept records stay
// within `max_group_bytes` (at least one per category a group holds). The header is c's
// with "subset" saying the rule and what was kept of each group. per_category >= 1.
Capture subset_capture(const Capture& c, int per_category, std::size_t max_group_bytes);

}  // namespace stcsim::validation::bits
