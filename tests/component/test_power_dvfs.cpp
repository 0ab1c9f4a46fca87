// The power model (models/power, board_dvfs) with figures chosen so that every answer
// can be derived by hand: the DVFS step a set power settles at, the V^2 scaling of
// dynamic energy, a DRAM-bound op at the preset's figures left at the preset clock, no
// power model at all, and the errors for figures that cannot describe a board.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "models/power/board_dvfs.h"
#include "sim/config/config.h"
#include "sim/core/input_error.h"
#include "sim/core/registry.h"

using namespace stcsim;

namespace {

// A board whose voltage is proportional to its clock: V(f) = f / 1000 V from (500 MHz,
// 0.5 V) to the 1000 MHz preset (1.0 V = nominal), 100 MHz steps, 10 W static at 1 V.
BoardDvfsSpec proportional_board(double limit_watts) {
  BoardDvfsSpec s;
  s.fp16_pj_per_product = 1.0;
  s.tf32_pj_per_product = 2.0;
  s.int8_pj_per_product = 0.5;
  s.sparse_select_pj_per_product = 0.25;
  s.cuda_fma_pj = 10;
  s.smem_pj_per_byte = 0.5;
  s.l2_pj_per_byte = 4;
  s.dram_pj_per_byte = 30;
  s.static_watts = 10;
  s.power_limit_watts = limit_watts;
  s.clock_step_mhz = 100;
  s.min_clock_mhz = 500;
  s.volts_at_min_clock = 0.5;
  s.volts_at_preset_clock = 1.0;
  s.nominal_volts = 1.0;
  return s;
}

// 3e11 fp16 products in 1e6 cycles: 0.3 J of products at 1 V, 1 ms at 1000 MHz. At f MHz
// (x = f / 1000): V = x, t = 1 ms / x, so P(x) = 0.3 J x^2 / (1 ms / x) + 10 W x
// = 300 x^3 + 10 x W:  1000 MHz 310 W, 900 227.7 W, 800 161.6 W, 700 109.9 W.
PowerActivity products_only() {
  PowerActivity a;
  a.dtype = Dtype::FP16;
  a.cycles = 1e6;
  a.tensor_products = 3e11;
  return a;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("power_dvfs_settles_at_the_highest_step_under_the_limit_exact", "[power]") {
  const BoardDvfs board(proportional_board(200), 1000);
  CHECK(board.clocks() == std::vector<double>{1000, 900, 800, 700, 600, 500});
  CHECK(board.volts(800) == Approx(0.8));
  const PowerReport r = board.settle(products_only());
  // 900 MHz draws 227.7 W > 200 W; 800 MHz draws 161.6 W.
  CHECK(r.clock_mhz == 800);
  CHECK(r.throttled == 1);
  CHECK(r.over_limit == 0);
  CHECK(r.watts == Approx(161.6).epsilon(1e-12));
  CHECK(r.tensor_joules == Approx(0.3 * 0.64).epsilon(1e-12));
  CHECK(r.static_joules == Approx(10 * 0.8 * 1.25e-3).epsilon(1e-12));
  CHECK(r.joules == Approx(0.202).epsilon(1e-12));
  // At the limit is allowed; just under it is one step lower.
  CHECK(BoardDvfs(proportional_board(161.6), 1000).settle(products_only()).clock_mhz == 800);
  CHECK(BoardDvfs(proportional_board(161.5), 1000).settle(products_only()).clock_mhz == 700);
  // A limit above the preset's power leaves the clock alone.
  const PowerReport free = BoardDvfs(proportional_board(310), 1000).settle(products_only());
  CHECK(free.clock_mhz == 1000);
  CHECK(free.throttled == 0);
  CHECK(free.watts == Approx(310).epsilon(1e-12));
}

TEST_CASE("power_dvfs_over_the_limit_even_at_the_lowest_clock", "[power]") {
  // 500 MHz draws 300 x 0.125 + 5 = 42.5 W; a 40 W limit (above 5 W of static at 0.5 V)
  // cannot be met: the op is reported at the lowest clock, flagged.
  const PowerReport r = BoardDvfs(proportional_board(40), 1000).settle(products_only());
  CHECK(r.clock_mhz == 500);
  CHECK(r.over_limit == 1);
  CHECK(r.watts == Approx(42.5).epsilon(1e-12));
  // The lowest clock is a candidate even off the step grid.
  auto s = proportional_board(40);
  s.min_clock_mhz = 550;
  s.volts_at_min_clock = 0.55;
  CHECK(BoardDvfs(s, 1000).clocks() == std::vector<double>{1000, 900, 800, 700, 600, 550});
}

TEST_CASE("power_dvfs_at_a_measured_clock_reports_there_without_settling_again", "[power]") {
  // gpu.measured_clock_mhz = 800 (validate's observed clock): the op is reported at 800 MHz
  // whatever the limit, with V(800) = 0.8 V from the curve that ends at the 1000 MHz
  // preset: 161.6 W (as in the settling test). Under a 200 W limit the controller alone
  // would also pick 800; under 100 W it would go to 600, but a measured 800 stays 800 and
  // is flagged over the limit instead of being throttled a second time.
  const PowerReport at = BoardDvfs(proportional_board(200), 1000, 800).settle(products_only());
  CHECK(at.clock_mhz == 800);
  CHECK(at.throttled == 1);
  CHECK(at.over_limit == 0);
  CHECK(at.watts == Approx(161.6).epsilon(1e-12));
  const PowerReport over = BoardDvfs(proportional_board(100), 1000, 800).settle(products_only());
  CHECK(over.clock_mhz == 800);
  CHECK(over.over_limit == 1);
  CHECK(over.watts == Approx(161.6).epsilon(1e-12));
  // A measured clock at the preset's: not throttled, 310 W under a 400 W limit.
  const PowerReport top = BoardDvfs(proportional_board(400), 1000, 1000).settle(products_only());
  CHECK(top.clock_mhz == 1000);
  CHECK(top.throttled == 0);
  CHECK(top.watts == Approx(310).epsilon(1e-12));
}

TEST_CASE("power_dynamic_energy_scales_with_v_squared_static_with_v_dram_not", "[power]") {
  const BoardDvfs board(proportional_board(1000), 1000);
  PowerActivity a;
  a.dtype = Dtype::INT8;
  a.sparse = true;
  a.cycles = 2e6;
  a.tensor_products = 1e10;  // x (0.5 + 0.25) pJ
  a.cuda_fmas = 1e8;         // x 10 pJ
  a.smem_bytes = 1e9;        // x 0.5 pJ/B
  a.l2_bytes = 1e8;          // x 4 pJ/B
  a.dram_bytes = 1e8;        // x 30 pJ/B
  const PowerReport hi = board.at_clock(a, 1000), lo = board.at_clock(a, 600);
  CHECK(hi.tensor_joules == Approx(5e-3).epsilon(1e-12));
  CHECK(hi.sparse_select_joules == Approx(2.5e-3).epsilon(1e-12));
  CHECK(hi.cuda_joules == Approx(1e-3).epsilon(1e-12));
  CHECK(hi.smem_joules == Approx(0.5e-3).epsilon(1e-12));
  CHECK(hi.l2_joules == Approx(0.4e-3).epsilon(1e-12));
  CHECK(hi.dram_joules == Approx(3e-3).epsilon(1e-12));
  CHECK(hi.static_joules == Approx(10 * 2e-3).epsilon(1e-12));  // 10 W for 2 ms
  // At 600 MHz, V = 0.6: every core-supply energy x 0.36, DRAM's unchanged, static
  // power x 0.6 over 2e6 cycles / 600 MHz.
  for (auto part : {&PowerReport::tensor_joules, &PowerReport::sparse_select_joules,
                    &PowerReport::cuda_joules, &PowerReport::smem_joules, &PowerReport::l2_joules})
    CHECK(lo.*part == Approx(hi.*part * 0.36).epsilon(1e-12));
  CHECK(lo.dram_joules == hi.dram_joules);
  CHECK(lo.static_joules == Approx(10 * 0.6 * 2e6 / 600e6).epsilon(1e-12));
  CHECK(lo.joules == Approx(lo.tensor_joules + lo.sparse_select_joules + lo.cuda_joules +
                            lo.smem_joules + lo.l2_joules + lo.dram_joules + lo.static_joules)
                         .epsilon(1e-12));
  // Dense: no selection energy; per-dtype energies.
  a.sparse = false;
  CHECK(board.at_clock(a, 1000).sparse_select_joules == 0);
  a.dtype = Dtype::TF32;
  CHECK(board.at_clock(a, 1000).tensor_joules == Approx(2e-2).epsilon(1e-12));
  a.dtype = Dtype::BF16;
  CHECK(board.at_clock(a, 1000).tensor_joules == Approx(1e-2).epsilon(1e-12));
}

TEST_CASE("power_dram_bound_op_at_the_a100_preset_is_not_throttled", "[power]") {
  // The a100 preset's figures, and an op that keeps DRAM busy at its full datasheet rate
  // for 1e6 cycles (1555 GB/s / 1410 MHz = 1103 B/cycle), every byte also through the L2
  // and shared memory, with the tensor work of a GEMV-like op (4 products per byte).
  const Config a100 = load_arch("a100");
  const auto& sec = a100.section("power");
  REQUIRE(sec.impl == "board_dvfs");
  const auto power = Registry<IPower>::create(sec.impl, sec.params, BuildContext{1410});
  REQUIRE(power->present());
  PowerActivity a;
  a.cycles = 1e6;
  a.dram_bytes = 1555e9 / 1410e6 * a.cycles;
  a.l2_bytes = a.smem_bytes = a.dram_bytes;
  a.tensor_products = 4 * a.dram_bytes;
  const PowerReport r = power->settle(a);
  INFO(r.watts << " W");
  CHECK(r.clock_mhz == 1410);
  CHECK(r.throttled == 0);
  CHECK(r.watts < 0.5 * 400);
}

TEST_CASE("power_none_is_absent", "[power]") {
  // `impl: none` (the default of a config without a power section) settles nothing.
  const Config plain =
      load_config_text("schema_version: 1\nbase: a100\npower:\n  impl: none\n", "p.yaml");
  const auto& sec = plain.section("power");
  CHECK(sec.impl == "none");
  CHECK(ComponentCatalog::instance().default_impl("power").impl == "none");
  const auto none = Registry<IPower>::create(sec.impl, sec.params);
  CHECK(!none->present());
  const PowerReport r = none->settle(products_only());
  CHECK(r.clock_mhz == 0);
  CHECK(r.joules == 0);
}

TEST_CASE("power_bad_inputs_name_the_parameter", "[power]") {
  // A limit no clock can meet: at or below the static power at the lowest clock.
  CHECK_THAT(error_of([] { BoardDvfs(proportional_board(5), 1000); }),
             Catch::Contains("power.power_limit_watts") && Catch::Contains("power.static_watts"));
  // The lowest clock above the preset clock.
  auto s = proportional_board(200);
  s.min_clock_mhz = 1200;
  CHECK_THAT(error_of([&] { BoardDvfs(s, 1000); }),
             Catch::Contains("power.min_clock_mhz") && Catch::Contains("gpu.clock_mhz"));
  // Voltage falling as the clock rises.
  s = proportional_board(200);
  s.volts_at_min_clock = 1.1;
  CHECK_THAT(error_of([&] { BoardDvfs(s, 1000); }), Catch::Contains("power.volts_at_min_clock"));
  // Through a config: a negative energy, and a limit below the preset's static power.
  const std::string head = "schema_version: 1\nbase: a100\npower:\n";
  CHECK_THAT(error_of([&] { load_config_text(head + "  fp16_pj_per_product: -1\n", "my.yaml"); }),
             Catch::Contains("power.fp16_pj_per_product") && Catch::Contains("my.yaml"));
  CHECK_THAT(error_of([&] { load_config_text(head + "  l2_pj_per_byte: -0.5\n", "my.yaml"); }),
             Catch::Contains("power.l2_pj_per_byte"));
  const Config low = load_config_text(head + "  power_limit_watts: 50\n", "my.yaml");
  const auto& sec = low.section("power");
  CHECK_THAT(error_of([&] { Registry<IPower>::create(sec.impl, sec.params, BuildContext{1410}); }),
             Catch::Contains("power.power_limit_watts (50 W)"));
  const Config slow = load_config_text(head + "  min_clock_mhz: 1500\n", "my.yaml");
  CHECK_THAT(error_of([&] {
               Registry<IPower>::create("board_dvfs", slow.section("power").params,
                                        BuildContext{1410});
             }),
             Catch::Contains("power.min_clock_mhz (1500 MHz)"));
}
