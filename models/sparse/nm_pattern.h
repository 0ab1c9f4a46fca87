// The logical N:M structured-sparsity pattern: of every M consecutive elements of a row
// along K (a "group"), at most N are nonzero. Hardware mma.sp runs 2:4 (f16, bf16, s8)
// and 1:2 (tf32); 1:4, 2:8 and 4:8 are design-space patterns the formats carry too.
#pragma once
#include <string>
#include <vector>

namespace stcsim::sparse {

struct NmPattern {
  int n = 2, m = 4;

  std::string str() const { return std::to_string(n) + ":" + std::to_string(m); }
  // Columns a row of `cols` dense elements keeps (cols must be a multiple of m).
  int kept_cols(int cols) const { return cols / m * n; }
  bool operator==(const NmPattern& o) const { return n == o.n && m == o.m; }
  bool operator!=(const NmPattern& o) const { return !(*this == o); }

  // Throws InputError unless the pattern is one of supported_patterns().
  void validate() const;
  // "N:M" (spaces around the numbers allowed), validated; InputError says what is wrong.
  static NmPattern parse(const std::string& text);
};

// 2:4, 1:4, 2:8, 4:8, 1:2.
const std::vector<NmPattern>& supported_patterns();

}  // namespace stcsim::sparse
