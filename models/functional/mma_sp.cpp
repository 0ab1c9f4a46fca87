#include "models/functional/mma_sp.h"

#include <string>

#include "models/functional/fragment_layout.h"
#include "models/functional/mma_reference.h"
#include "models/sparse/mma_sp_layout.h"
#include "models/sparse/nm_compress.h"
#include "sim/core/input_error.h"

namespace stcsim::functional {

SparseAFragments sparse_a_to_fragments(Shape s, MmaType t, const std::vector<std::uint32_t>& a,
                                       int selector) {
  const sparse::MmaSpForm form = sparse_form(s, t);
  const sparse::MmaSpGeometry& g = sparse::geometry(form);
  const sparse::MmaSpRegisters regs =
      sparse::to_mma_sp_registers(form, sparse::compress(a, 16, g.k, g.pattern), selector);
  SparseAFragments out{WarpFragment(g.a_regs), WarpFragment(1)};
  out.a.regs = regs.a;
  out.e.regs = regs.e;
  return out;
}

sparse::CompressedNm kept_a_from_fragments(Shape s, MmaType t, const WarpFragment& a,
                                           const WarpFragment& e, int selector,
                                           sparse::MetadataOrder order) {
  const sparse::MmaSpForm form = sparse_form(s, t);
  const sparse::MmaSpGeometry& g = sparse::geometry(form);
  if (a.per_lane != g.a_regs || e.per_lane != 1)
    throw InputError(std::string("mma.sp ") + to_string(s) + " " + to_string(t) + " takes " +
                     std::to_string(g.a_regs) + " A registers and 1 metadata register per lane");
  return sparse::from_mma_sp_registers(form, a.regs, e.regs, selector, order);
}

std::vector<std::uint32_t> sparse_a_from_fragments(Shape s, MmaType t, const WarpFragment& a,
                                                   const WarpFragment& e, int selector,
                                                   sparse::MetadataOrder order) {
  return sparse::uncompress(kept_a_from_fragments(s, t, a, e, selector, order));
}

WarpFragment mma_sp(Shape s, MmaType t, const WarpFragment& a, const WarpFragment& b,
                    const WarpFragment& c, const WarpFragment& e, int selector,
                    const numerics::AccumulationModel& model, sparse::MetadataOrder order) {
  const sparse::CompressedNm kept = kept_a_from_fragments(s, t, a, e, selector, order);
  return cd_to_fragment(
      mma_sp_reference(t, 8, kept, b_from_fragment(s, t, b), cd_from_fragment(c), model));
}

}  // namespace stcsim::functional
