// The functional (bit-exact) model of a warp's dense
//   mma.sync.aligned.<shape>.row.col.<f32|s32>.<type>.<type>.<f32|s32> d, a, b, c;
// on register fragments as the 32 lanes hold them (fragment_layout.h). Forms: f16/bf16
// m16n8k8 and m16n8k16, tf32 m16n8k8, s8 m16n8k32; f32 accumulators (s32 for s8).
// Arithmetic: numerics::mma_dot under `model` over the instruction's K (mma_reference.h).
#pragma once
#include "models/functional/mma_types.h"
#include "models/functional/warp_fragment.h"
#include "models/numerics/accumulation_model.h"

namespace stcsim::functional {

// Throws InputError for an unsupported form or fragments of the wrong size.
WarpFragment mma_sync(Shape s, MmaType t, const WarpFragment& a, const WarpFragment& b,
                      const WarpFragment& c, const numerics::AccumulationModel& model);

}  // namespace stcsim::functional
