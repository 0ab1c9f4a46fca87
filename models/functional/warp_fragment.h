// One operand of a warp-level MMA as the warp holds it: `per_lane` 32-bit registers in
// each of the 32 lanes, so a CUDA kernel's fragments can be replayed bit for bit.
#pragma once
#include <cstdint>
#include <vector>

namespace stcsim::functional {

struct WarpFragment {
  int per_lane = 0;
  std::vector<std::uint32_t> regs;  // regs[lane * per_lane + i] is register i of lane

  WarpFragment() = default;
  explicit WarpFragment(int per_lane_regs)
      : per_lane(per_lane_regs), regs(std::size_t(32) * per_lane_regs, 0) {}
  std::uint32_t& at(int lane, int i) { return regs[std::size_t(lane) * per_lane + i]; }
  std::uint32_t at(int lane, int i) const { return regs[std::size_t(lane) * per_lane + i]; }
  bool operator==(const WarpFragment& o) const { return per_lane == o.per_lane && regs == o.regs; }
};

}  // namespace stcsim::functional
