// The physics check every preset shares: growing M, N or K alone (the others at 1024)
// never makes a GEMM take fewer cycles.
#pragma once
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/run_stcsim.h"

namespace stcsim::test {

// `extra`: more run options, e.g. " --dtype fp8_e4m3".
inline void check_time_monotone_in_mnk(const std::string& arch, const std::vector<int>& sizes,
                                       const std::string& extra = "") {
  for (int dim = 0; dim < 3; ++dim) {
    double prev = 0;
    for (int s : sizes) {
      int mnk[3] = {1024, 1024, 1024};
      mnk[dim] = s;
      const std::string g =
          std::to_string(mnk[0]) + "x" + std::to_string(mnk[1]) + "x" + std::to_string(mnk[2]);
      const double c = run_stats("--arch " + arch + " --gemm " + g + extra)["ops"][0]["cycles"];
      INFO(arch << " dim "
                << "MNK"[dim] << " " << g << ": " << c << " cycles, previous " << prev);
      CHECK(c >= prev);
      prev = c;
    }
  }
}

}  // namespace stcsim::test
