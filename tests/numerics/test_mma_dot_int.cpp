// Integer MMA: exact products, int32 accumulation wrapping modulo 2^32.
#include <catch2/catch.hpp>
#include <climits>
#include <vector>

#include "models/numerics/mma_dot.h"

using stcsim::numerics::mma_dot_int;

TEST_CASE("numerics_mma_int8_exact", "[numerics]") {
  // 127*127 + (-128)(-128) + 3*(-5) + 10 = 16129 + 16384 - 15 + 10 = 32508.
  const std::int32_t a[] = {127, -128, 3}, b[] = {127, -128, -5};
  CHECK(mma_dot_int(a, b, 3, 10) == 32508);
  // int4: 7*(-8) + (-8)(-8) = -56 + 64 = 8.
  const std::int32_t a4[] = {7, -8}, b4[] = {-8, -8};
  CHECK(mma_dot_int(a4, b4, 2, 0) == 8);
  CHECK(mma_dot_int(a, b, 0, -7) == -7);
}

TEST_CASE("numerics_mma_int8_wraps_modulo_2_32", "[numerics]") {
  const std::int32_t one = 1, minus_one = -1;
  CHECK(mma_dot_int(&one, &one, 1, INT_MAX) == INT_MIN);        // 2^31 - 1 + 1 wraps
  CHECK(mma_dot_int(&minus_one, &one, 1, INT_MIN) == INT_MAX);  // -2^31 - 1 wraps
  // 131072 products of (-128)(-128) = 2^14 sum to 2^31: one past INT_MAX -> INT_MIN.
  const std::vector<std::int32_t> v(131072, -128);
  CHECK(mma_dot_int(v.data(), v.data(), 131072, 0) == INT_MIN);
}
