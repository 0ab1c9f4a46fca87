// What the bit capture runs: the groups (instruction, type, N), how many records each,
// and every record's operands, generated on the host from a seed so the GPU kernels only
// move registers (and a shared-memory image) in and out. The categories cycle through the
// records (record i has category i % kCategories).
#pragma once
#include <cstdint>
#include <string>

#include "validation/bitcapture/capture_file.h"

namespace stcsim::validation::bits {

// scale multiplies the default record counts (768 per mma group, 256 for wgmma N = 8, 18
// for N = 64, 6 for N = 256; at least kCategories each): about 12.7 MB at scale 1.
// `only`: a comma list of group names (empty: all). D words are left zero.
Capture plan_capture(std::uint64_t seed, double scale, const std::string& only = "");

// Fills every record's D with the functional model's replay under `preset` and marks the
// capture synthetic: what the CPU tests and the campaign's dry run compare against.
void fill_by_model(Capture& c, const std::string& preset);

}  // namespace stcsim::validation::bits
