// On a mismatch, the functional tests write every operand to a text file named by the
// test (e.g. failure_sp24_f16_f32_m16n8k32.txt) in the current directory, so a failure
// can be replayed (the CUTLASS testbed habit). The first dump of a run truncates the
// file; later ones in the same run append.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stcsim::functional::testing {

struct DumpMatrix {
  std::string name;  // "A (logical 16x32)", "metadata e (per lane)", ...
  int rows = 0, cols = 0;
  std::vector<std::uint32_t> values;  // row-major, printed as hex bit patterns
};

// Writes `header` then each matrix; returns the file name.
std::string dump_failure(const std::string& test_name, const std::string& header,
                         const std::vector<DumpMatrix>& matrices);

}  // namespace stcsim::functional::testing
