// What to prune the weight operand to, as users write it on the command line:
//   dense                        nothing pruned
//   N:M                          magnitude N:M along K (2:4, 1:4, 2:8, 4:8, 1:2)
//   block:RxC@S                  R x C blocks (R along N = output channels, C along K)
//                                with the smallest norms zeroed until a fraction S of
//                                the weights is (0 <= S < 1), separately in each layer
//   block:RxC@S+N:M              the same, then N:M inside the kept blocks
//   .../global  (or .../layer)   one threshold across all layers (or per layer, default)
// e.g. "2:4", "block:32x32@0.75", "block:4x1@0.9+2:4", "block:16x16@0.8/global".
#pragma once
#include <string>

#include "models/sparse/nm_pattern.h"

namespace stcsim::workloads {

struct PruneSpec {
  enum class Kind { Dense, Nm, Block };
  Kind kind = Kind::Dense;
  sparse::NmPattern nm{2, 4};  // Kind::Nm; for Kind::Block the pattern inside kept blocks
  bool inner_nm = false;       // Kind::Block: N:M inside the kept blocks
  int block_rows = 0;          // R: rows of a block, along N (output channels)
  int block_cols = 0;          // C: columns of a block, along K (input features)
  double target = 0;           // Kind::Block: fraction of the weights in pruned blocks
  bool global = false;         // Kind::Block: one threshold across layers

  // InputError quoting the text and saying what was expected.
  static PruneSpec parse(const std::string& text);
  // A trace's sparsity label (sparsity_label() form: no '@', no scope); InputError else.
  static PruneSpec parse_label(const std::string& text);
  // Canonical text; parse(str()) gives this spec back.
  std::string str() const;
  // The pattern as a trace records it: "dense", "2:4", "block:32x32", "block:4x1+2:4".
  std::string sparsity_label() const;
  // The fraction of weights the pattern zeroes when every part applies:
  // N:M 1 - N/M, block S, block + N:M 1 - (1 - S) N/M.
  double nominal_sparsity() const;
};

inline constexpr int kMaxBlockSide = 4096;

}  // namespace stcsim::workloads
