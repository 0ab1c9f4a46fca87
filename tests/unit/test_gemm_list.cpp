#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.h"
#include "sim/driver/gemm_list.h"

using namespace stcsim;

TEST_CASE("gemm_parse_valid_and_invalid", "[gemm]") {
  const auto op = parse_gemm("8192x8x4096", Dtype::BF16, "--gemm");
  CHECK(op.m == 8192);
  CHECK(op.n == 8);
  CHECK(op.k == 4096);
  CHECK(op.dtype == Dtype::BF16);
  for (const char* bad :
       {"", "8192", "8x8", "8x8x", "0x8x8", "-1x8x8", "8x8x8x8", "axbxc", "8x8x8k"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_gemm(bad, Dtype::FP16, "--gemm"), InputError);
  }
  CHECK_THROWS_WITH(parse_gemm("8x8", Dtype::FP16, "--gemm"), Catch::Contains("--gemm"));
}

static std::string write_tmp(const std::string& text) {
  static int n = 0;
  const auto p = std::filesystem::temp_directory_path() /
                 ("stcsim_trace_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
  std::ofstream(p) << text;
  return p.string();
}

TEST_CASE("gemm_trace_reads_and_rejects", "[gemm]") {
  const auto ok = read_gemm_trace(
      write_tmp("# a layer list\nstcsim-trace 0\n128x256x64 bf16 fc1\n64x64x64\n"), Dtype::FP16);
  REQUIRE(ok.size() == 2);
  CHECK(ok[0].name == "fc1");
  CHECK(ok[0].dtype == Dtype::BF16);
  CHECK(ok[1].dtype == Dtype::FP16);
  const auto p1 = write_tmp("stcsim-trace 0\n128x256\n");
  CHECK_THROWS_WITH(read_gemm_trace(p1, Dtype::FP16), Catch::Contains(p1 + ":2"));
  CHECK_THROWS_WITH(read_gemm_trace(write_tmp("stcsim-trace 9\n1x1x1\n"), Dtype::FP16),
                    Catch::Contains("version 9"));
  CHECK_THROWS_WITH(read_gemm_trace(write_tmp("1x1x1\n"), Dtype::FP16), Catch::Contains("header"));
  CHECK_THROWS_WITH(read_gemm_trace(write_tmp("stcsim-trace 0\n8x8x8 fp12\n"), Dtype::FP16),
                    Catch::Contains("fp12"));
  CHECK_THROWS_WITH(read_gemm_trace(write_tmp("stcsim-trace 0\n"), Dtype::FP16),
                    Catch::Contains("no GEMM"));
  CHECK_THROWS_WITH(read_gemm_trace("/no/such/trace", Dtype::FP16), Catch::Contains("cannot open"));
}
