#include "validation/bitcapture/replay.h"

#include "models/functional/mma_reference.h"
#include "models/functional/mma_sp.h"
#include "models/functional/mma_sync.h"

namespace stcsim::validation::bits {

using functional::Shape;
using functional::WarpFragment;

namespace {
WarpFragment fragment(const std::uint32_t* words, int count) {
  WarpFragment f(count / 32);
  f.regs.assign(words, words + count);
  return f;
}
}  // namespace

std::vector<std::uint32_t> replay(const GroupSpec& g, const std::uint32_t* record,
                                  const numerics::AccumulationModel& model) {
  switch (g.instr) {
    case Instr::MmaSync:
      return functional::mma_sync(Shape::M16N8K16, g.type,
                                  fragment(record + g.a_offset(), g.a_words()),
                                  fragment(record + g.b_offset(), g.b_words()),
                                  fragment(record + g.c_offset(), g.cd_words()), model)
          .regs;
    case Instr::MmaSp:
      return functional::mma_sp(Shape::M16N8K32, g.type,
                                fragment(record + g.a_offset(), g.a_words()),
                                fragment(record + g.b_offset(), g.b_words()),
                                fragment(record + g.c_offset(), g.cd_words()),
                                fragment(record + g.e_offset(), g.e_words()), 0, model,
                                sparse::MetadataOrder::Ordered)
          .regs;
    case Instr::Wgmma:
    case Instr::WgmmaSp:
      break;
  }
  const LogicalOperands ops = unpack_operands(g, record);
  std::vector<std::uint32_t> out(g.cd_words());
  // wgmma.sp multiplies the kept values only, as mma.sp does (models/functional/sparse_dot.h).
  pack_accumulator(
      g,
      g.sparse() ? functional::mma_sp_reference(g.type, g.n, ops.a_kept, ops.b, ops.c, model)
                 : functional::mma_reference(g.type, g.m(), g.n, g.k(), ops.a, ops.b, ops.c, model),
      out.data());
  return out;
}

}  // namespace stcsim::validation::bits
