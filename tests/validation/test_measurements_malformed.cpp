// Malformed measurement files are refused with an InputError naming the file and the
// field, never a json type_error (the CI fuzzer found one: a "schema" given twice, the
// second time as an object, escaped load_measurements as nlohmann's type_error 302).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "validation/compare/measurements.h"
#include "validation/compare/simulate.h"
#include "validation/compare/ubench_compare.h"

using namespace stcsim;
using namespace stcsim::validation;
using Catch::Matchers::Contains;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "stcsim-test-measurements";
  std::filesystem::create_directories(dir);
  const auto p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}

const char* kGemm =
    R"({"name": "g", "kernel": "cublas", "m": 256, "n": 256, "k": 256, "time_us": {"median": 10}})";

std::string file_with_gemm_fields(const std::string& extra) {
  return std::string(R"({"schema": "stcsim-measurements/1", "device": {"name": "NVIDIA H200"},)") +
         R"( "gemms": [)" + std::string(kGemm).substr(0, std::string(kGemm).size() - 1) + extra +
         "}]}";
}

// The value after `flag` in the `stcsim` arguments validate simulates g with.
std::string simulated_arg(const MeasuredGemm& g, const char* arch, const char* flag) {
  std::vector<std::string> args;
  std::string why;
  REQUIRE(simulation_args(g, arch, std::nullopt, {}, args, why));
  const auto at = std::find(args.begin(), args.end(), flag);
  REQUIRE(at != args.end());
  REQUIRE(at + 1 != args.end());
  return *(at + 1);
}

}  // namespace

TEST_CASE("measurements_schema_of_the_wrong_type_is_an_input_error", "[validation][measurements]") {
  // The fuzzer's input: the last "schema" wins, an object.
  const auto p =
      write_temp("schema_object.json",
                 R"({"schema": "stcsim-measemrunset/1", "schema": {"name": "x"}, "entries": []})");
  CHECK_THROWS_AS(load_measurements(p), InputError);
  CHECK_THROWS_WITH(load_measurements(p), Contains("schema_object.json"));
  // And the microbenchmark loader skips it as not one of its own.
  CHECK(load_ubench(p).empty());
}

TEST_CASE("measurements_optional_fields_of_the_wrong_type_name_the_field",
          "[validation][measurements]") {
  struct Case {
    const char* extra;
    const char* field;
  } cases[] = {
      {R"(, "dtype": 5)", "'dtype'"},
      {R"(, "sparsity": [])", "'sparsity'"},
      {R"(, "mapping": {"cta_m": 128, "cta_n": 128, "cta_k": 32, "warp_m": 64, "warp_n": 64, "stages": 3, "swizzle": "x"})",
       "'swizzle'"},
      {R"(, "bsr": {"block_rows": "32"})", "'block_rows'"},
      {R"(, "csr": {"sparsity": "high"})", "'sparsity'"},
      {R"(, "check": {"passed": 1})", "'passed'"},
      {R"(, "check": {"numerics": {"presets": {"rn": {"max_ulp": "0"}}}})", "'max_ulp'"},
      // Whole numbers: a size, a tile or a count is a JSON integer in range, not 128.5
      // (which nlohmann reads as 128), "256", 0 or a negative count.
      {R"(, "m": 128.5)", "'m': expected a whole number, got 128.5"},
      {R"(, "n": "256")", "'n': expected a whole number"},
      {R"(, "k": 0)", "'k': 0 is out of range"},
      {R"(, "time_us": {"median": 10, "runs": -3})", "'runs'"},
      {R"(, "mapping": {"cta_m": 128, "cta_n": 128, "cta_k": 32, "warp_m": 64, "warp_n": 64, "stages": 2.5})",
       "'stages': expected a whole number"},
      {R"(, "check": {"numerics": {"presets": {"rn": {"compared": -1}}}})", "'compared'"},
  };
  for (const Case& c : cases) {
    INFO(c.extra);
    const auto p = write_temp("field.json", file_with_gemm_fields(c.extra));
    CHECK_THROWS_AS(load_measurements(p), InputError);
    CHECK_THROWS_WITH(load_measurements(p),
                      Contains(c.field) && Contains("gemms[0]") && Contains("field.json"));
  }
  // The same file with well-typed fields loads.
  const auto ok = write_temp(
      "ok.json", file_with_gemm_fields(R"(, "dtype": "bf16", "bsr": {"block_rows": 32})"));
  const auto files = load_measurements(ok);
  REQUIRE(files.size() == 1);
  REQUIRE(files[0].gemms.size() == 1);
  CHECK(files[0].gemms[0].dtype == "bf16");
  CHECK(files[0].gemms[0].block_rows == 32);
}

TEST_CASE("measurements_csr_gather_loop_defaults_to_the_harness_and_is_checked",
          "[validation][measurements]") {
  // Files written before entry.csr.gather_loop existed are of the harness kernel, whose
  // loop is dependent (validation/cuda/csr_spmm.h); validate simulates what is named.
  const auto old =
      write_temp("csr_old.json", file_with_gemm_fields(R"(, "csr": {"sparsity": 0.9})"));
  CHECK(load_measurements(old)[0].gemms[0].csr_gather_loop == "dependent");
  const auto staged =
      write_temp("csr_staged.json",
                 file_with_gemm_fields(R"(, "csr": {"sparsity": 0.9, "gather_loop": "staged"})"));
  MeasuredGemm g = load_measurements(staged)[0].gemms[0];
  CHECK(g.csr_gather_loop == "staged");
  g.kernel = "stcsim_csr";
  std::vector<std::string> args;
  std::string why;
  REQUIRE(simulation_args(g, "h200", std::nullopt, {}, args, why));
  CHECK(std::find(args.begin(), args.end(), "mapping.csr_gather_loop=staged") != args.end());
  const auto bad = write_temp(
      "csr_bad.json",
      file_with_gemm_fields(R"(, "csr": {"sparsity": 0.9, "gather_loop": "prefetched"})"));
  CHECK_THROWS_AS(load_measurements(bad), InputError);
  CHECK_THROWS_WITH(load_measurements(bad),
                    Contains("gemms[0].csr.gather_loop") && Contains("prefetched"));
}

// Our 2:4 kernel issues its warp tile column by column (validation/cuda/sp24_kernel.cuh), the
// dense one row by row: validate simulates each in its own order.
TEST_CASE("measurements_our_2_4_kernel_is_simulated_in_its_mma_order",
          "[validation][measurements]") {
  MeasuredGemm g =
      load_measurements(write_temp("order.json", file_with_gemm_fields("")))[0].gemms[0];
  std::vector<std::string> args;
  std::string why;
  g.kernel = "stcsim_sp24";
  REQUIRE(simulation_args(g, "h100", std::nullopt, {}, args, why));
  CHECK(std::find(args.begin(), args.end(), "mapping.mma_order=columns") != args.end());
  for (const char* k : {"stcsim_dense", "cusparselt", "torch_24_cutlass"}) {
    g.kernel = k;
    args.clear();
    REQUIRE(simulation_args(g, "h100", std::nullopt, {}, args, why));
    CHECK(std::find(args.begin(), args.end(), "mapping.mma_order=columns") == args.end());
  }
}

// Our kernels sync at the top of each k-tile, after the last mma of the one before
// (validation/cuda/dense_mainloop.cuh, sp24_kernel.cuh); the libraries at CUTLASS's last k-sub.
TEST_CASE("measurements_our_kernels_are_simulated_with_their_barrier_point",
          "[validation][measurements]") {
  MeasuredGemm g =
      load_measurements(write_temp("barrier.json", file_with_gemm_fields("")))[0].gemms[0];
  std::string why;
  g.block_rows = g.block_cols = 32, g.pruned = 0.5;  // read by the block-sparse kernels only
  for (const char* k : {"stcsim_dense", "stcsim_sp24", "stcsim_bsr", "cublas", "cusparselt",
                        "torch_24_cutlass", "torch_bsr"}) {
    g.kernel = k;
    std::vector<std::string> args;
    REQUIRE(simulation_args(g, "h100", std::nullopt, {}, args, why));
    const bool ours = std::string(k).rfind("stcsim_", 0) == 0;
    INFO(k);
    CHECK((std::find(args.begin(), args.end(), "mapping.barrier_point=ktile_end") != args.end()) ==
          ours);
    // and stage their output tile in its own dtype (cta_tile.cuh), not CUTLASS's fp32
    CHECK((std::find(args.begin(), args.end(), "mapping.epilogue_staging=output") != args.end()) ==
          ours);
  }
}

// Our kernels' instructions besides mma and fragment loads (models/mapping/
// harness_loop_instructions.h): each k-tile's prelude at the tiles the harness compiles,
// the 2:4 kernel's rolled k-sub loop; nothing for the libraries or a tile it does not have.
TEST_CASE("measurements_our_kernels_are_simulated_with_their_loop_instructions",
          "[validation][measurements]") {
  MeasuredGemm g =
      load_measurements(write_temp("loop.json", file_with_gemm_fields("")))[0].gemms[0];
  MeasuredMapping m;
  m.cta_m = 256, m.cta_n = 128, m.cta_k = 64, m.warp_m = 64, m.warp_n = 64, m.stages = 3;
  g.mapping = m;
  g.block_rows = g.block_cols = 32, g.pruned = 0.5;
  auto has = [](const std::vector<std::string>& a, const std::string& s) {
    return std::find(a.begin(), a.end(), s) != a.end();
  };
  std::string why;
  const struct {
    const char* kernel;
    const char* prelude;  // empty: none passed
    const char* copy;
    bool rolled;
  } cases[] = {{"stcsim_dense", "mapping.ktile_prelude_instructions=16",
                "mapping.ktile_copy_instructions=83", false},
               {"stcsim_sp24", "mapping.ktile_prelude_instructions=27",
                "mapping.ktile_copy_instructions=76", true},
               {"stcsim_bsr", "mapping.ktile_prelude_instructions=16",
                "mapping.ktile_copy_instructions=114", false},
               {"cublas", "", "", false},
               {"cusparselt", "", "", false}};
  for (const auto& c : cases) {
    INFO(c.kernel);
    g.kernel = c.kernel;
    std::vector<std::string> args;
    REQUIRE(simulation_args(g, "h100", std::nullopt, {}, args, why));
    const bool ours = c.prelude[0] != 0;
    if (ours) {
      CHECK(has(args, c.prelude));
      CHECK(has(args, c.copy));
    } else {  // the libraries: no count of ours at all
      for (const auto& a : args) CHECK(a.find("_instructions") == std::string::npos);
    }
    CHECK(has(args, "mapping.ksub_loop=rolled") == c.rolled);
    CHECK(has(args, "mapping.ksub_prelude_instructions=11") == c.rolled);
  }
  // A tile the harness does not compile: no counts to pass.
  g.kernel = "stcsim_dense";
  g.mapping->stages = 5;
  std::vector<std::string> args;
  REQUIRE(simulation_args(g, "h100", std::nullopt, {}, args, why));
  for (const auto& a : args) CHECK(a.find("prelude_instructions") == std::string::npos);
}

// The L2 a measured time met: time_us is flushed unless settings.time_us_l2 says the file's
// times are a benchmark loop's repeats; `validate --time warm` compares timing.warm_us (a
// {median} object from the harness, a list of samples from the PyTorch baselines) under
// --l2 repeat and leaves out entries without it.
TEST_CASE("measurements_time_l2_reaches_the_simulation", "[validation][measurements]") {
  auto l2_of = [](const MeasuredGemm& g) { return simulated_arg(g, "a100", "--l2"); };
  const std::string head = R"({"schema": "stcsim-measurements/1", "device": {"name": "A100"}, )";
  const std::string gemm =
      R"("gemms": [{"name": "g", "kernel": "cublas", "m": 256, "n": 256, "k": 256,
         "time_us": {"median": 10}, "timing": {"warm_us": {"median": 8}}},
        {"name": "h", "kernel": "torch_linear", "m": 256, "n": 256, "k": 256,
         "time_us": {"median": 10}, "timing": {"warm_us": [7, 9, 6, 10]}},
        {"name": "i", "kernel": "cublas", "m": 256, "n": 256, "k": 256,
         "time_us": {"median": 10}}]})";
  auto cold = load_measurements(write_temp("l2_cold.json", head + gemm));
  CHECK(cold[0].gemms[0].l2 == "flush");
  CHECK(l2_of(cold[0].gemms[0]) == "flush");
  CHECK(cold[0].gemms[0].warm_us == 8);
  CHECK(cold[0].gemms[1].warm_us == 8);  // the median of 6, 7, 9, 10
  CHECK(!cold[0].gemms[2].warm_us);
  const auto loop = load_measurements(
      write_temp("l2_loop.json", head + R"("settings": {"time_us_l2": "repeat"}, )" + gemm));
  CHECK(loop[0].gemms[2].l2 == "repeat");
  CHECK(l2_of(loop[0].gemms[2]) == "repeat");
  CHECK(loop[0].gemms[2].time_us == 10);
  use_warm_times(cold);
  CHECK(cold[0].gemms[0].time_us == 8);
  CHECK(l2_of(cold[0].gemms[0]) == "repeat");
  std::vector<std::string> args;
  std::string why;
  CHECK(!simulation_args(cold[0].gemms[2], "a100", std::nullopt, {}, args, why));
  CHECK_THAT(why, Contains("timing.warm_us"));
  const auto bad =
      write_temp("l2_bad.json", head + R"("settings": {"time_us_l2": "cold"}, )" + gemm);
  CHECK_THROWS_WITH(load_measurements(bad), Contains("l2_bad.json") &&
                                                Contains("settings.time_us_l2") &&
                                                Contains("\"cold\""));
  const auto bad_warm =
      write_temp("l2_bad_warm.json",
                 head + R"("gemms": [{"name": "g", "kernel": "cublas", "m": 8, "n": 8, "k": 8,
         "time_us": {"median": 10}, "timing": {"warm_us": ["x"]}}]})");
  // Only --time warm reads it: the file still loads, and that comparison is left out.
  auto files = load_measurements(bad_warm);
  use_warm_times(files);
  CHECK(!simulation_args(files[0].gemms[0], "a100", std::nullopt, {}, args, why));
  CHECK_THAT(why, Contains("l2_bad_warm.json") && Contains("timing.warm_us"));
}

// Our kernels take no residues: the harness pads the GEMM to the tile with zeros and times
// that (entry.padding). validate simulates the problem that ran and keeps the GEMM's shape
// for the report and the 2:4 pairs; a padding that is not the problem padded is refused.
TEST_CASE("measurements_padded_entries_are_simulated_as_they_ran", "[validation][measurements]") {
  auto gemm_arg = [](const MeasuredGemm& g) { return simulated_arg(g, "h200", "--gemm"); };
  MeasuredGemm g = load_measurements(write_temp(
      "padded.json",
      file_with_gemm_fields(
          R"(, "m": 30720, "n": 16, "k": 27, "padding": {"m": 30720, "n": 64, "k": 64})")))[0]
                       .gemms[0];
  g.kernel = "stcsim_dense";
  CHECK(g.padded());
  CHECK(g.shape() == "30720x16x27");
  CHECK(g.ran_shape() == "30720x64x64");
  CHECK(gemm_arg(g) == "30720x64x64");
  const MeasuredGemm plain = load_measurements(write_temp(
      "unpadded.json", file_with_gemm_fields(R"(, "padding": null)")))[0]
                                 .gemms[0];
  CHECK(!plain.padded());
  CHECK(gemm_arg(plain) == "256x256x256");
  const MeasuredGemm same = load_measurements(write_temp(
      "padded_same.json",
      file_with_gemm_fields(R"(, "padding": {"m": 256, "n": 256, "k": 256})")))[0]
                                .gemms[0];
  CHECK(!same.padded());  // padded to itself: nothing to mark
  CHECK(same.ran_shape() == "256x256x256");
  const auto smaller =
      write_temp("padded_smaller.json",
                 file_with_gemm_fields(R"(, "padding": {"m": 256, "n": 128, "k": 256})"));
  CHECK_THROWS_WITH(load_measurements(smaller), Contains("padded_smaller.json") &&
                                                    Contains("gemms[0].padding") &&
                                                    Contains("smaller than the GEMM 256x256x256"));
  const auto not_object =
      write_temp("padded_list.json", file_with_gemm_fields(R"(, "padding": [64, 64, 64])"));
  CHECK_THROWS_WITH(load_measurements(not_object),
                    Contains("gemms[0].padding") && Contains("expected null or"));
  const auto no_k =
      write_temp("padded_no_k.json", file_with_gemm_fields(R"(, "padding": {"m": 256, "n": 256})"));
  CHECK_THROWS_WITH(load_measurements(no_k), Contains("gemms[0].padding"));
}

// The harness keeps round(density x block columns) blocks a block row, and at least one
// (validation/harness/operands.cpp): validate's synthetic maps take the same floor.
TEST_CASE("measurements_bsr_entries_keep_a_block_a_row_as_the_harness",
          "[validation][measurements]") {
  MeasuredGemm g = load_measurements(write_temp(
      "bsr_floor.json",
      file_with_gemm_fields(
          R"(, "bsr": {"block_rows": 32, "block_cols": 32, "sparsity": 0.9})")))[0]
                       .gemms[0];
  g.kernel = "stcsim_bsr";
  g.sparsity = "bsr";
  CHECK(simulated_arg(g, "h200", "--block-min-per-row") == "1");
  CHECK(simulated_arg(g, "h200", "--block") == "32x32@0.9");
}
