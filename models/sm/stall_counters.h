// Why a tensor-core pipe sat idle, in pipe-cycles. Every idle cycle between two mma
// issues is charged to the constraint that held the second one back.
#pragma once
#include <array>

namespace stcsim {

enum class StallCause { Global, Operand, Dependency, Sync, CtaBoundary, kCount };

inline const char* to_string(StallCause c) {
  switch (c) {
    case StallCause::Global:
      return "waiting_global_memory";
    case StallCause::Operand:
      return "waiting_shared_memory";
    case StallCause::Dependency:
      return "accumulator_dependency";
    case StallCause::Sync:
      return "barrier";
    case StallCause::CtaBoundary:
      return "cta_prologue_epilogue";
    default:
      return "?";
  }
}

struct StallCounters {
  std::array<double, int(StallCause::kCount)> cycles{};
  void add(StallCause c, double n) { cycles[int(c)] += n; }
  double total() const {
    double t = 0;
    for (double c : cycles) t += c;
    return t;
  }
};

}  // namespace stcsim
