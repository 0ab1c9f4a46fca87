// Replays one captured instruction through the functional model: the D it would write
// from the record's own a, b, c (and e) under an accumulation model.
//   mma.sync, mma.sp: functional::mma_sync / mma_sp on the captured register fragments
//     (the instruction models themselves, layouts included).
//   wgmma, wgmma.sp: the record's operands read as logical matrices (instruction_layout.h)
//     and functional::mma_reference over the instruction's K, the pruned products fed
//     as zeros, as the functional model treats mma.sp: models/functional has no wgmma of
//     its own, and this is the arithmetic it would share.
#pragma once
#include <cstdint>
#include <vector>

#include "models/numerics/accumulation_model.h"
#include "validation/bitcapture/instruction_layout.h"

namespace stcsim::validation::bits {

// The accumulator words (the record's d layout) the model computes.
std::vector<std::uint32_t> replay(const GroupSpec& g, const std::uint32_t* record,
                                  const numerics::AccumulationModel& model);

}  // namespace stcsim::validation::bits
