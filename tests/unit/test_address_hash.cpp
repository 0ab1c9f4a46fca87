// The address hashes' fixed-divisor division (issue 18: a multiply instead of a hardware
// divide per line) must equal `/` for every dividend, edge cases included.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

#include "models/memory/address_hash.h"

using namespace stcsim;

TEST_CASE("divider_equals_integer_division", "[address_hash]") {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t x = 7;
  int checked = 0;
  for (std::uint64_t d : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7},
                          std::uint64_t{40}, std::uint64_t{80}, std::uint64_t{96},
                          std::uint64_t{1000}, std::uint64_t{1} << 20, max / 3, max - 1, max}) {
    const Divider by(d);
    CHECK(by.divisor() == d);
    for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, d - 1, d, d + 1, 2 * d - 1, 2 * d,
                            max - 1, max, max / d * d, max / d * d - 1}) {
      CHECK(by.quotient(v) == v / d);
      ++checked;
    }
    for (int i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t v = i % 2 ? x : x >> (i % 60);  // large and small dividends
      if (by.quotient(v) != v / d) FAIL("divisor " << d << " dividend " << v);
      ++checked;
    }
  }
  CHECK(checked == 12 * 20011);
}

TEST_CASE("interleave_visits_every_target_once_per_run", "[address_hash]") {
  for (std::uint64_t n : {1, 5, 40, 80}) {
    const Divider by(n);
    for (std::uint64_t run = 0; run < 50; ++run) {
      std::vector<int> seen(n, 0);
      for (std::uint64_t u = run * n; u < (run + 1) * n; ++u) ++seen[interleave(u, by)];
      for (int s : seen) CHECK(s == 1);
    }
  }
}
