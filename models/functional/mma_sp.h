// The functional (bit-exact) model of a warp's sparse
//   mma.sp{::ordered_metadata}.sync.aligned.<shape>.row.col.<f32|s32>.<type>.<type>.<f32|s32>
//       d, a, b, c, e, f;
// on register fragments: A compressed with its metadata register e and sparsity
// selector f (models/sparse/mma_sp_layout.h), B, C, D dense (fragment_layout.h). Forms:
// f16/bf16 m16n8k16 and m16n8k32, tf32 m16n8k8 and m16n8k16 (1:2), s8 m16n8k32 and
// m16n8k64 (2:4).
//
// Model: the metadata names the B rows each kept value of A meets, and D is one dot
// product per element over those kept products only, in increasing k (mma_sp_reference in
// mma_reference.h, sparse_dot.h): a pruned position's B (even inf or NaN) is never read,
// and an accumulation model's blocks count the K/2 products the hardware multiplies (h100)
// or, with sparse_blocks_by_position (a100, as its RTL is built), the K positions. The H200's bit
// capture of 2026-11-26 matches this bit for bit for f16 and bf16 m16n8k32 under the h100 preset
// (validation/reports/nvidia_h200); the positions model, pruned products fed as zeros, matched none
// of its random records.
#pragma once
#include <cstdint>
#include <vector>

#include "models/functional/mma_types.h"
#include "models/functional/warp_fragment.h"
#include "models/numerics/accumulation_model.h"
#include "models/sparse/metadata.h"

namespace stcsim::functional {

// Throws InputError for an unsupported form, a selector out of range, fragments of the
// wrong size, or a metadata nibble invalid under `order` (naming lane, bits, nibble).
WarpFragment mma_sp(Shape s, MmaType t, const WarpFragment& a, const WarpFragment& b,
                    const WarpFragment& c, const WarpFragment& e, int selector,
                    const numerics::AccumulationModel& model,
                    sparse::MetadataOrder order = sparse::MetadataOrder::Ordered);

// A logical 16 x K sparse A (2:4, or 1:2 for tf32) into its compressed fragment and
// metadata register (one per lane) for `selector`, via the sparse formats library.
struct SparseAFragments {
  WarpFragment a, e;
};
SparseAFragments sparse_a_to_fragments(Shape s, MmaType t, const std::vector<std::uint32_t>& a,
                                       int selector);
// The kept values of the 16 x K A and their positions, as the metadata names them.
sparse::CompressedNm kept_a_from_fragments(
    Shape s, MmaType t, const WarpFragment& a, const WarpFragment& e, int selector,
    sparse::MetadataOrder order = sparse::MetadataOrder::Ordered);
// The logical 16 x K A that compressed fragments and metadata describe.
std::vector<std::uint32_t> sparse_a_from_fragments(Shape s, MmaType t, const WarpFragment& a,
                                                   const WarpFragment& e, int selector,
                                                   sparse::MetadataOrder order);

}  // namespace stcsim::functional
