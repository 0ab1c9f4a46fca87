// fp8 (e4m3, e5m2) end to end through the command line: refused with exit 2 on GPUs
// without fp8 tensor cores (the preset and what it has are named), run on Hopper through
// wgmma, and computed in --functional mode with the preset's accumulation model.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("cli_fp8_on_ampere_and_volta_is_refused_naming_the_preset", "[cli][fp8]") {
  for (const char* arch : {"a100", "v100"}) {
    for (const char* dt : {"fp8_e4m3", "fp8_e5m2"}) {
      const auto r = run_stcsim(std::string("run --arch ") + arch + " --gemm 256x256x256 --dtype " +
                                dt + " -q");
      INFO(arch << " " << dt << "\nstderr: " << r.err);
      CHECK(r.status == 2);
      CHECK_THAT(r.err, Catch::Contains(std::string("arch ") + arch));
      CHECK_THAT(r.err, Catch::Contains(std::string("no ") + dt + " mma"));
      CHECK_THAT(r.err, Catch::Contains("mma here takes: fp16"));
    }
  }
  // 2:4 likewise, and a trace naming fp8 for one op.
  const auto sp =
      run_stcsim("run --arch a100 --gemm 256x256x256 --dtype fp8_e4m3 --sparsity 2:4 -q");
  CHECK(sp.status == 2);
  CHECK_THAT(sp.err, Catch::Contains("arch a100"));
  const std::string d = temp_dir("fp8trace");
  std::ofstream(d + "/t.trace") << "stcsim-trace 0\n256x256x256 fp16 ok\n256x256x256 fp8_e5m2 f8\n";
  const auto tr = run_stcsim("run --arch a100 --trace " + d + "/t.trace -q");
  CHECK(tr.status == 2);
  CHECK_THAT(tr.err, Catch::Contains("f8") && Catch::Contains("no fp8_e5m2 mma"));
  // An unknown spelling lists the valid names.
  const auto bad = run_stcsim("run --arch h100 --gemm 64x64x64 --dtype fp8");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("fp8_e4m3|fp8_e5m2"));
}

TEST_CASE("cli_fp8_runs_on_hopper_through_wgmma", "[cli][fp8]") {
  for (const char* dt : {"fp8_e4m3", "fp8_e5m2"}) {
    const auto j = run_stats(std::string("--arch h100 --gemm 1024x1024x1024 --dtype ") + dt);
    const auto& op = j["ops"][0];
    INFO(dt);
    CHECK(op["dtype"] == dt);
    CHECK(op["instruction"].get<std::string>().rfind(std::string(dt) + " wgmma m64n", 0) == 0);
    CHECK_THAT(op["instruction"].get<std::string>(), Catch::EndsWith("k32"));
    // The fp8 peak: 132 SMs x 4096 FMA/clk x 2 at the preset's 1.755 GHz (the datasheet's
    // 1979 TFLOP/s is at 1.83 GHz).
    CHECK(op["peak_tflops"].get<double>() == Approx(132 * 4096 * 2 * 1.755e9 / 1e12).epsilon(1e-6));
    CHECK(op["mapping"]["cta_k"] == 128);  // 128 bytes of A per stage
  }
  const auto sp = run_stats("--arch h100 --gemm 1024x1024x1024 --dtype fp8_e4m3 --sparsity 2:4");
  CHECK(sp["ops"][0]["instruction"].get<std::string>().find("k64 2:4") != std::string::npos);
}

TEST_CASE("cli_fp8_functional_uses_the_hopper_accumulation_model", "[cli][fp8]") {
  const std::string d = temp_dir("fp8func");
  const auto r =
      run_stcsim("run --arch h100 --gemm 64x32x256 --dtype fp8_e4m3 --functional -q --out " + d);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::ifstream in(d + "/stats.json");
  const auto j = nlohmann::json::parse(in);
  const auto& f = j["ops"][0]["functional"];
  CHECK(f["numerics"] == "h100");
  CHECK(f["y_dtype"] == "float32 accumulators");
  // Blocks of 16 products kept to 2 bits beyond fp32's significand, truncated: a few
  // units in the last place of sum |x w| (the bound the a100 functional test uses).
  CHECK(f["max_error_in_ulps_of_abs_sum"].get<double>() < 64);
  CHECK(f["sampled_outputs"] == 512);
  CHECK(std::filesystem::file_size(f["y_file"].get<std::string>()) >= 64 * 32 * 4);
  CHECK(std::filesystem::file_size(f["x_file"].get<std::string>()) >= 64 * 256 * 4);
}
