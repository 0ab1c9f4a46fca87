// Runs one group's records on the GPU: uploads the records (operands packed by the host),
// one CTA per record issues the instruction once, and D comes back into `words` in
// place. Throws std::runtime_error on a CUDA error (the caller runs it in a child).
#pragma once
#include <cstdint>
#include <vector>

#include "validation/bitcapture/instruction_layout.h"

namespace stcsim::validation::bits {

void run_capture_group(const GroupSpec& g, std::vector<std::uint32_t>& words, int records);

}  // namespace stcsim::validation::bits
