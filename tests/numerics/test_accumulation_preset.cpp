// The accumulation presets carry the published parameters; bad names and models are refused.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "models/numerics/accumulation_model.h"
#include "models/numerics/mma_dot.h"

using namespace stcsim::numerics;

TEST_CASE("numerics_accumulation_presets", "[numerics]") {
  CHECK(accumulation_preset_names() == std::vector<std::string>{"a100", "h100", "ieee_sequential"});

  const AccumulationModel a = accumulation_preset("a100");
  CHECK((a.name == "a100" && a.block_size == 8 && a.extra_bits == 1));
  CHECK(a.rounding == Rounding::TowardZero);
  CHECK((!a.normalize_within_block && !a.flush_subnormal_inputs && !a.flush_subnormal_output));
  CHECK(a.c_in_first_block);
  CHECK(accumulation_preset("a100", FloatFormat::TF32).block_size == 4);
  CHECK(accumulation_preset("a100", FloatFormat::BF16).block_size == 8);

  const AccumulationModel h = accumulation_preset("h100");
  CHECK((h.block_size == 16 && h.extra_bits == 2 && h.rounding == Rounding::TowardZero));
  CHECK(accumulation_preset("h100", FloatFormat::TF32).block_size == 8);
  CHECK(accumulation_preset("h100", FloatFormat::E4M3).block_size == 16);

  const AccumulationModel s = accumulation_preset("ieee_sequential");
  CHECK((s.block_size == 1 && s.extra_bits >= kExactAlignmentBits));
  CHECK(s.rounding == Rounding::NearestEven);
  CHECK(accumulation_preset("ieee_sequential", FloatFormat::TF32).block_size == 1);
}

TEST_CASE("numerics_accumulation_preset_unknown_name_lists_known", "[numerics]") {
  try {
    accumulation_preset("b200");
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("b200") != std::string::npos);
    CHECK(msg.find("a100, h100, ieee_sequential") != std::string::npos);
  }
}

TEST_CASE("numerics_accumulation_model_validation", "[numerics]") {
  const std::uint32_t one = 0x3C00;
  AccumulationModel m = accumulation_preset("a100");
  m.block_size = 0;
  CHECK_THROWS_AS(mma_dot(FloatFormat::FP16, &one, &one, 1, 0, m), std::invalid_argument);
  m = accumulation_preset("a100");
  m.extra_bits = -1;
  CHECK_THROWS_AS(mma_dot(FloatFormat::FP16, &one, &one, 1, 0, m), std::invalid_argument);
  m = accumulation_preset("a100");
  CHECK_THROWS_AS(mma_dot(FloatFormat::FP16, &one, &one, -1, 0, m), std::invalid_argument);
  m.normalize_within_block = true;
  m.extra_bits = 101;
  CHECK_THROWS_AS(validate(m), std::invalid_argument);
}
