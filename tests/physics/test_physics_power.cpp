// Physics of the power model on the presets (models/power, docs/power.md): energy grows
// with work, 2:4 spends less tensor-core energy than dense on the same GEMM, no op
// settles above its board's limit (unless flagged over it at the lowest clock), a
// DRAM-bound op is never throttled, seconds follow the settled clock, and without a
// power model no power stat is written.
#include <catch2/catch.hpp>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
double limit_of(const nlohmann::json& j) {
  return j["config"]["hardware"]["power"]["params"]["power_limit_watts"]["value"];
}
}  // namespace

TEST_CASE("physics_power_energy_grows_with_work", "[physics][power]") {
  const auto j = run_stats(
      "--arch a100 --dtype fp16 --gemm 512x512x512 --gemm 1024x1024x1024 "
      "--gemm 2048x2048x2048 --gemm 2048x2048x4096");
  const auto& ops = j["ops"];
  for (std::size_t i = 1; i < ops.size(); ++i) {
    INFO(ops[i]["name"]);
    CHECK(ops[i]["energy"]["joules"].get<double>() > ops[i - 1]["energy"]["joules"].get<double>());
    CHECK(ops[i]["energy"]["tensor"].get<double>() > ops[i - 1]["energy"]["tensor"].get<double>());
    CHECK(ops[i]["energy"]["l2"].get<double>() > ops[i - 1]["energy"]["l2"].get<double>());
  }
  // The parts add up, the total sums the ops, and its watts are its joules over its seconds.
  double sum = 0;
  for (const auto& op : ops) {
    double parts = 0;
    for (const char* p : {"tensor", "sparse_select", "cuda_cores", "smem", "l2", "dram", "static"})
      parts += op["energy"][p].get<double>();
    CHECK(parts == Approx(op["energy"]["joules"].get<double>()).epsilon(1e-9));
    sum += op["energy"]["joules"].get<double>();
  }
  const auto& t = j["total"];
  CHECK(t["energy"]["joules"].get<double>() == Approx(sum).epsilon(1e-12));
  CHECK(t["power"]["watts"].get<double>() ==
        Approx(t["energy"]["joules"].get<double>() / t["seconds"].get<double>()).epsilon(1e-12));
}

TEST_CASE("physics_power_sparse_24_spends_less_tensor_energy_than_dense", "[physics][power]") {
  for (const char* arch : {"a100", "h100"}) {
    INFO(arch);
    const std::string g = std::string("--arch ") + arch + " --dtype fp16 --gemm 2048x2048x2048";
    const auto d = run_stats(g)["ops"][0];
    const auto s = run_stats(g + " --sparsity 2:4")["ops"][0];
    const double dense = d["energy"]["tensor"];
    const double sparse =
        s["energy"]["tensor"].get<double>() + s["energy"]["sparse_select"].get<double>();
    INFO("dense " << dense << " J, 2:4 " << sparse << " J of tensor-core energy");
    CHECK(s["energy"]["sparse_select"].get<double>() > 0);
    CHECK(d["energy"]["sparse_select"].get<double>() == 0);
    CHECK(sparse < 0.7 * dense);
    CHECK(sparse > 0.4 * dense);
  }
}

// A register operand path stretches how long each mma holds its pipe, not the products it
// computes: at one clock the same GEMM spends the same tensor-core energy with or without
// the path (and its fragment writes), in more time with it.
TEST_CASE("physics_power_tensor_energy_counts_products_not_pipe_occupancy", "[physics][power]") {
  const std::string gemm =
      "--arch h100 --gemm 1024x1024x1024 -p mapping.kernel=multistage_gemm "
      "-p gpu.measured_clock_mhz=1700";
  const auto with = run_stats(gemm +
                              " -p tensor_core.register_operand_bytes_per_cycle=111.25 "
                              "-p tensor_core.fragment_writes_on_register_path=1");
  const auto without = run_stats(gemm);
  CHECK(with["ops"][0]["cycles"].get<double>() > without["ops"][0]["cycles"].get<double>());
  CHECK(with["ops"][0]["energy"]["tensor"].get<double>() ==
        Approx(without["ops"][0]["energy"]["tensor"].get<double>()).epsilon(1e-9));
}

// A measured clock above the preset's is the controller's setting, not the SMs' clock
// (h100.yaml [14]: NVML read 1980 MHz where the cycle counters ran at 1755): the op runs
// and is reported at the preset clock. One below it stands.
TEST_CASE("physics_power_a_measured_clock_above_the_preset_is_taken_at_the_preset",
          "[physics][power]") {
  const std::string gemm = "--arch h100 --gemm 1024x1024x1024 -p mapping.kernel=multistage_gemm";
  const auto at_preset = run_stats(gemm)["ops"][0];
  const auto above = run_stats(gemm + " -p gpu.measured_clock_mhz=1980")["ops"][0];
  const auto below = run_stats(gemm + " -p gpu.measured_clock_mhz=1600")["ops"][0];
  CHECK(at_preset["power"]["clock_mhz"] == 1755);
  CHECK(above["power"]["clock_mhz"] == 1755);
  CHECK(above["cycles"] == at_preset["cycles"]);
  CHECK(above["seconds"].get<double>() ==
        Approx(above["cycles"].get<double>() / 1755e6).epsilon(1e-12));
  CHECK(below["power"]["clock_mhz"] == 1600);
  CHECK(below["seconds"].get<double>() ==
        Approx(below["cycles"].get<double>() / 1600e6).epsilon(1e-12));
}

TEST_CASE("physics_power_never_above_the_limit_after_settling", "[physics][power]") {
  for (const char* arch : {"a100", "h100", "v100"}) {
    INFO(arch);
    const auto j = run_stats(std::string("--arch ") + arch +
                             " --dtype fp16 --gemm 4096x4096x2048 --gemm 1024x1024x1024 "
                             "--gemm 100x300x200 --gemm 8192x8x8192");
    const double limit = limit_of(j);
    const double preset = j["config"]["hardware"]["gpu"]["params"]["clock_mhz"]["value"];
    for (const auto& op : j["ops"]) {
      INFO(op["name"] << ": " << op["power"]["watts"] << " W at " << op["power"]["clock_mhz"]
                      << " MHz");
      CHECK(op["power"]["over_limit"] == 0);
      CHECK(op["power"]["watts"].get<double>() <= limit * (1 + 1e-12));
      CHECK(op["power"]["clock_mhz"].get<double>() <= preset);
      // Seconds are the cycles at the settled clock.
      CHECK(op["seconds"].get<double>() ==
            Approx(op["cycles"].get<double>() / (op["power"]["clock_mhz"].get<double>() * 1e6))
                .epsilon(1e-12));
      CHECK(op["power"]["throttled"] == (op["power"]["clock_mhz"].get<double>() < preset ? 1 : 0));
    }
  }
}

TEST_CASE("physics_power_limit_unreachable_reports_the_lowest_clock", "[physics][power]") {
  // 65 W: above the a100 preset's static power at its lowest clock (88 W x 0.7 V / 1 V =
  // 61.6 W), below what even 210 MHz draws with a GEMM running.
  const auto j =
      run_stats("--arch a100 --dtype fp16 --gemm 2048x2048x2048 -p power.power_limit_watts=65");
  const auto& op = j["ops"][0];
  CHECK(op["power"]["over_limit"] == 1);
  CHECK(op["power"]["throttled"] == 1);
  CHECK(op["power"]["clock_mhz"] == 210);
  CHECK(op["power"]["watts"].get<double>() > 65);
  CHECK(j["total"]["power"]["over_limit"] == 1);
}

TEST_CASE("physics_power_measured_clock_is_kept_not_settled_again", "[physics][power]") {
  // gpu.measured_clock_mhz (what validate sets from a measurement's clock samples): the op
  // is timed at that clock even where the controller would settle lower, and flagged when
  // the model would draw more than the limit there. Under a 150 W limit a 2048^3 GEMM
  // settles far below 1410 MHz; measured at 1200 MHz it stays at 1200.
  const std::string g =
      "--arch a100 --dtype fp16 --gemm 2048x2048x2048 -p power.power_limit_watts=150";
  const auto settled = run_stats(g)["ops"][0];
  REQUIRE(settled["power"]["clock_mhz"].get<double>() < 1200);
  const auto held = run_stats(g + " -p gpu.measured_clock_mhz=1200")["ops"][0];
  CHECK(held["power"]["clock_mhz"] == 1200);
  CHECK(held["power"]["throttled"] == 1);
  CHECK(held["power"]["over_limit"] == 1);
  CHECK(held["power"]["watts"].get<double>() > 150);
  CHECK(held["seconds"].get<double>() ==
        Approx(held["cycles"].get<double>() / 1200e6).epsilon(1e-12));
  // Without a power model the measured clock still times the op.
  const auto plain = run_stats(g + " -p power.impl=none -p gpu.measured_clock_mhz=1200")["ops"][0];
  CHECK(plain["seconds"].get<double>() ==
        Approx(plain["cycles"].get<double>() / 1200e6).epsilon(1e-12));
  CHECK(plain["cycles"] == held["cycles"]);
}

TEST_CASE("physics_power_dram_bound_op_never_throttled", "[physics][power]") {
  for (const char* arch : {"a100", "h100", "h200", "v100"}) {
    INFO(arch);
    const auto j = run_stats(std::string("--arch ") + arch + " --dtype fp16 --gemm 8192x8x8192");
    const auto& op = j["ops"][0];
    CHECK(op["limiter"] == "dram");
    CHECK(op["power"]["throttled"] == 0);
    CHECK(op["power"]["watts"].get<double>() < limit_of(j));
  }
}

TEST_CASE("physics_power_none_writes_no_power_stats_and_keeps_the_clock", "[physics][power]") {
  const std::string g = "--arch a100 --dtype fp16 --gemm 2048x2048x2048";
  const auto j = run_stats(g + " -p power.impl=none");
  for (const auto* rec : {&j["ops"][0], &j["total"]}) {
    CHECK(!rec->contains("energy"));
    CHECK(!rec->contains("power"));
  }
  const auto& op = j["ops"][0];
  CHECK(op["seconds"].get<double>() == Approx(op["cycles"].get<double>() / 1410e6).epsilon(1e-12));
  // The same cycles as with the preset's power model (the model only settles the clock).
  const auto p = run_stats(g);
  CHECK(p["ops"][0]["cycles"] == op["cycles"]);
  CHECK(p["ops"][0].contains("energy"));
}
