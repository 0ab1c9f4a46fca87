// One Verilated dot-product unit (rtl/src/sp24_dot.sv or dense_dot.sv, C++ mode) with
// its own clock: the `impl: rtl` tensor core measures its timing and computes values
// with it. Verilator's headers stay in the .cpp.
//
// C++ mode, not SystemC mode: the tensor-core interface is transaction level (an SM's
// SC_THREAD calls issue() at its current time for an instruction that starts later), so
// the unit is clocked here, outside SystemC's scheduler, and nothing in the SystemC
// model waits on it (tests/rtl/tb_sp24_dot_sc.cpp runs the SystemC-mode model).
#pragma once
#include <cstdint>
#include <memory>

namespace stcsim::rtl {

enum class DotFormat { FP16, BF16, S8 };

// What clocking back-to-back dot products through the unit showed (cycle 0: the first
// beat is on the input).
struct UnitCycles {
  int input_busy = 0;            // first to last accepted beat, inclusive
  int beats_accepted = 0;        // equals input_busy when the input never stalled
  int first_to_last_result = 0;  // cycle in which the last result is on the output
  int results = 0;
};

class VerilatedDotUnit {
 public:
  // sparse: sp24_dot, else dense_dot. `block`: the RTL preset's logical K per beat;
  // checked against the Verilated port widths.
  VerilatedDotUnit(bool sparse, int block);
  ~VerilatedDotUnit();
  VerilatedDotUnit(const VerilatedDotUnit&) = delete;
  VerilatedDotUnit& operator=(const VerilatedDotUnit&) = delete;

  bool sparse() const { return sparse_; }
  int block() const { return block_; }

  // Feeds `dots` dot products of `beats` beats each back to back, output always ready,
  // and counts cycles until the last result.
  UnitCycles time_back_to_back(int dots, int beats, DotFormat f);

  // d = c + sum over k logical positions (k a multiple of block). sparse: `a` holds the
  // k/2 kept values and `nibbles` the k/4 ordered metadata nibbles; dense: `a` holds k
  // values (nibbles unused). Values are bit patterns (s8 in the low byte). Throws
  // std::logic_error if the unit flags the metadata or produces no result.
  std::uint32_t dot(DotFormat f, const std::uint32_t* a, const std::uint8_t* nibbles,
                    const std::uint32_t* b, int k, std::uint32_t c);

  struct Port;  // the Verilated model behind a common interface (in the .cpp)

 private:
  bool sparse_;
  int block_;
  std::unique_ptr<Port> port_;
};

}  // namespace stcsim::rtl
