// The sweeps' area model (sim/sweep/tensor_core_area.h): the cell table it is fitted on,
// the fit, and its response to every tensor-core parameter that adds or removes hardware;
// a run's key stats carry it, and the report ranks equal speeds by the smaller design.
#include <catch2/catch.hpp>
#include <fstream>

#include "sim/sweep/key_stats.h"
#include "sim/sweep/report_data.h"
#include "sim/sweep/tensor_core_area.h"
#include "tests/support/run_stcsim.h"

using namespace stcsim;
using namespace stcsim::sweep;
using Catch::Matchers::Contains;

TEST_CASE("area_cell_table_parses_and_refuses_malformed_rows", "[sweep][area]") {
  const auto t = parse_cell_table(
      "# comment\nunit,parameters,cells\ndense_dot,BLOCK=4;EXTRA=1,100\nsp24_meta_decode,-,5\n",
      "t.csv");
  REQUIRE(t.size() == 2);
  CHECK(t[0].unit == "dense_dot");
  CHECK(t[0].parameters == std::vector<std::string>{"BLOCK=4", "EXTRA=1"});
  CHECK(t[0].cells == 100);
  CHECK(t[1].parameters.empty());
  const std::pair<const char*, const char*> bad[] = {
      {"", "t.csv: no header row"},
      {"unit,cells\n", "t.csv:1: expected the header"},
      {"unit,parameters,cells\ndense_dot,BLOCK=4\n", "t.csv:2: expected 'unit,parameters,cells'"},
      {"unit,parameters,cells\ndense_dot,BLOCK,10\n", "parameter 'BLOCK' is not NAME=NUMBER"},
      {"unit,parameters,cells\ndense_dot,BLOCK=x,10\n", "parameter 'BLOCK=x'"},
      {"unit,parameters,cells\ndense_dot,-,0\n", "cells '0' is not a positive count"},
      {"unit,parameters,cells\ndense_dot,-,12a\n", "cells '12a'"},
  };
  for (const auto& [text, expected] : bad) {
    INFO(text);
    CHECK_THROWS_WITH(parse_cell_table(text, "t.csv"), Contains(expected));
  }
}

TEST_CASE("area_fit_recovers_a_linear_table_exactly", "[sweep][area]") {
  // dense_dot = 2000 + 2500 BLOCK, stage = 3 + BITS, one group = 108 + 5.
  const auto t = parse_cell_table(
      "unit,parameters,cells\n"
      "dense_dot,BLOCK=4;EXTRA=1,12000\ndense_dot,BLOCK=8;EXTRA=1,22000\n"
      "dense_dot,BLOCK=12;EXTRA=1,32000\nsp24_operand_select,-,108\nsp24_meta_decode,-,5\n"
      "stc_operand_stage,BITS=128,131\nstc_operand_stage,BITS=1024,1027\n",
      "t.csv");
  const AreaCoefficients c = fit_area_coefficients(t);
  CHECK(c.per_lane == Approx(2500));
  CHECK(c.per_dot_unit == Approx(2000));
  CHECK(c.per_stage_bit == Approx(1));
  CHECK(c.per_stage == Approx(3));
  CHECK(c.per_sparse_group == 113);
  // One width of a unit cannot be fitted.
  CHECK_THROWS_WITH(fit_area_coefficients(
                        parse_cell_table("unit,parameters,cells\ndense_dot,BLOCK=4,1\n", "t.csv")),
                    Contains("fewer than two widths of dense_dot"));
}

TEST_CASE("area_of_the_committed_table_responds_to_every_hardware_parameter", "[sweep][area]") {
  const AreaCoefficients& c = yosys_area_coefficients();
  // Generic cells: a multiplier lane costs thousands, a register bit about one cell.
  CHECK(c.per_lane > 1000);
  CHECK(c.per_dot_unit > 0);
  CHECK(c.per_stage_bit == Approx(1).margin(0.05));
  CHECK(c.per_sparse_group > 0);
  // The A100 preset: 108 SMs x 4 pipes, 256 fp16 lanes, blocks of 8, 2:4, 64 B of B and
  // 128 metadata bits per cycle.
  const TensorCoreDesign a100{108, 4, 256, 8, true, 64, 128};
  const TensorCoreArea a = tensor_core_area(a100, c);
  CHECK(a.dot_units == Approx(432 * 32 * (c.per_dot_unit + 8 * c.per_lane)));
  CHECK(a.sparse_select == Approx(432 * 128 * c.per_sparse_group));
  CHECK(a.b_path == Approx(432 * (c.per_stage + 512 * c.per_stage_bit)));
  CHECK(a.metadata_path == Approx(432 * (c.per_stage + 128 * c.per_stage_bit)));
  CHECK(a.total() == Approx(a.dot_units + a.sparse_select + a.b_path + a.metadata_path));
  // Each parameter moves it the way hardware would.
  auto total = [&](TensorCoreDesign d) { return tensor_core_area(d, c).total(); };
  TensorCoreDesign d = a100;
  d.lanes = 512;  // twice the multipliers (fp16_ii_cycles 8 -> 4)
  CHECK(total(d) > 1.9 * a.dot_units);
  d = a100;
  d.sparse_24 = false;
  CHECK(total(d) == Approx(a.total() - a.sparse_select));
  d = a100;
  d.b_bytes_per_cycle = 128;
  CHECK(total(d) - a.total() == Approx(432 * 512 * c.per_stage_bit));
  d = a100;
  d.metadata_bits_per_cycle = 256;
  CHECK(total(d) - a.total() == Approx(432 * 128 * c.per_stage_bit));
  d = a100;
  d.block = 4;  // twice the dot units for the same lanes: more aligners and accumulators
  CHECK(total(d) > a.total());
  d = a100;
  d.sms = 54;
  CHECK(total(d) == Approx(a.total() / 2));
  // No multipliers, no area.
  d.lanes = 0;
  CHECK(tensor_core_area(d, c).total() == 0);
}

TEST_CASE("area_key_stats_follow_the_run_config", "[sweep][area][cli]") {
  auto area = [](const std::string& params) {
    const std::string out = test::temp_dir("area_key_stats");
    const test::ProcResult r =
        test::run_stcsim("run --arch a100 --gemm 128x128x128 -q --out " + out + " " + params);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    std::ifstream in(out + "/stats.json");
    const nlohmann::json k = key_stats(nlohmann::json::parse(in));
    REQUIRE(k.contains("tc_area_cells"));
    return k["tc_area_cells"].get<double>();
  };
  const double base = area("");
  const AreaCoefficients& c = yosys_area_coefficients();
  CHECK(base == Approx(tensor_core_area({108, 4, 256, 8, true, 64, 128}, c).total()));
  CHECK(area("-p tensor_core.operand_b_bytes_per_cycle=128") > base);
  CHECK(area("-p tensor_core.metadata_bits_per_cycle=256") > base);
  CHECK(area("-p tensor_core.fp16_ii_cycles=4") > 1.9 * base);  // the dot units double
  CHECK(area("-p tensor_core.sparse_patterns=") < base);
}

TEST_CASE("report_ranks_equal_speeds_by_the_smaller_design", "[sweep][area]") {
  ReportData d;
  auto add = [&](std::int64_t id, double speedup, std::optional<double> area,
                 std::optional<double> joules) {
    PointView p;
    p.id = id;
    p.ok = true;
    p.geomean_speedup = speedup;
    p.tc_area_cells = area;
    p.total_joules = joules;
    d.points[id] = p;
  };
  add(0, 1.0, 5e6, 2.0);
  add(1, 1.5, 9e6, 2.0);
  add(2, 1.5, 7e6, 3.0);  // as fast as p1, smaller: ranks before it
  add(3, 1.5, 7e6, 1.0);  // as fast and as small as p2, less energy: first
  add(4, 1.2, std::nullopt, std::nullopt);
  const auto r = d.ranked();
  REQUIRE(r.size() == 5);
  CHECK(r[0]->id == 3);
  CHECK(r[1]->id == 2);
  CHECK(r[2]->id == 1);
  CHECK(r[3]->id == 4);
  CHECK(r[4]->id == 0);
  // The front by area: p0 (cheapest), then the faster of the next area (p2 and p3 are equal
  // on both axes: the lower id stands for them); p1 is beaten.
  const auto f = d.pareto_front();
  REQUIRE(f.size() == 2);
  CHECK(f[0]->id == 0);
  CHECK(f[1]->id == 2);
}
