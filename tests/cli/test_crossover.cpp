// `stcsim crossover`: the speedup curves, the crossing point, the CSV and the PNG.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {
std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("cli_crossover_unstructured_two_curves_csv_png", "[cli][crossover]") {
  const std::string d = temp_dir("crossover_unstructured");
  const auto r = run_stcsim(
      "crossover --arch a100 --gemm 512x512x1024 --pattern unstructured --points 0.5,0.9,0.995 "
      "--out " +
      d);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::string csv = read(d + "/crossover.csv");
  CHECK(csv.rfind("sparsity,csr_cuda_cores,tc_16x1_vectors\n", 0) == 0);
  // Three points, and the speedup rises with sparsity on both curves.
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  double prev_csr = 0, prev_tc = 0;
  int rows = 0;
  while (std::getline(in, line)) {
    double s, csr, tc;
    char c1, c2;
    std::istringstream ls(line);
    REQUIRE(ls >> s >> c1 >> csr >> c2 >> tc);
    CHECK(csr >= prev_csr);
    CHECK(tc >= prev_tc * 0.999);
    prev_csr = csr;
    prev_tc = tc;
    ++rows;
  }
  CHECK(rows == 3);
  CHECK(prev_csr > 1.0);  // at 99.5% the CSR kernel beats dense
  CHECK(r.out.find("csr_cuda_cores: first beats dense at sparsity") != std::string::npos);
  CHECK(std::filesystem::file_size(d + "/crossover.png") > 1000);
}

TEST_CASE("cli_crossover_block_reports_crossing", "[cli][crossover]") {
  const std::string d = temp_dir("crossover_block");
  const auto r = run_stcsim(
      "crossover --arch a100 --gemm 1024x1024x1024 --pattern block:32x32 --points 0,0.5,0.9 "
      "--out " +
      d);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(read(d + "/crossover.csv").rfind("sparsity,speedup\n", 0) == 0);
  CHECK(r.out.find("block:32x32: first beats dense at sparsity") != std::string::npos);
}

TEST_CASE("cli_crossover_bad_pattern_is_an_input_error", "[cli][crossover]") {
  const auto r =
      run_stcsim("crossover --gemm 64x64x64 --pattern diagonal --out " + temp_dir("crossover_bad"));
  CHECK(r.status == 2);
  CHECK(r.err.find("--pattern: expected block:RxC, unstructured or 2:4") != std::string::npos);
}

TEST_CASE("cli_crossover_overlays_patterns_and_marks_crossings", "[cli][crossover]") {
  const std::string d = temp_dir("crossover_overlay");
  const auto r = run_stcsim(
      "crossover --arch a100 --gemm 1024x1024x1024 --pattern 2:4,block:32x32 --points 0.5,0.9 "
      "--out " +
      d);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  // One column per curve; 2:4 has its one point at 0.5, NaN elsewhere.
  const std::string csv = read(d + "/crossover.csv");
  CHECK(csv.rfind("sparsity,2:4,block:32x32\n", 0) == 0);
  std::istringstream in(csv);
  std::string header, at_half, at_09;
  std::getline(in, header);
  std::getline(in, at_half);
  std::getline(in, at_09);
  CHECK(at_half.rfind("0.5,", 0) == 0);
  CHECK(at_half.find("NaN") == std::string::npos);
  CHECK(at_09.rfind("0.9,NaN,", 0) == 0);
  // 32x32 blocks at 90% beat dense on this GEMM: its crossing is printed and marked on
  // the plot with the axis labels in words and units.
  CHECK(r.out.find("block:32x32: first beats dense at sparsity") != std::string::npos);
  const std::string gp = read(d + "/crossover.gp");
  CHECK(gp.find("weight sparsity (fraction of the weights pruned away)") != std::string::npos);
  CHECK(gp.find("speedup over dense (x") != std::string::npos);
  CHECK(gp.find("block:32x32 > dense at") != std::string::npos);
  CHECK(gp.find("point pt 6") != std::string::npos);
  CHECK(std::filesystem::exists(d + "/p0_2_4/stats.json"));
  CHECK(std::filesystem::exists(d + "/p1_block_32x32/stats.json"));
}

// The points run as child processes with their arguments as given, not through a shell:
// a value with quotes in it is a (bad) value, never a command.
TEST_CASE("cli_crossover_passes_values_to_its_runs_without_a_shell", "[cli][crossover]") {
  const std::string d = temp_dir("crossover_quotes");
  const std::string pwn = d + "_pwn";
  const auto r = run_stcsim("crossover --arch a100 --gemm 128x128x128 --points 0.5 --out " + d +
                            " -p \"l2.capacity_kib=1'; touch " + pwn + "; echo '\"");
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("l2.capacity_kib") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(pwn));
  // An existing file where --out wants a folder: a clear error, the file kept.
  const std::string f = d + "_file";
  { std::ofstream(f) << "keep"; }
  const auto file = run_stcsim("crossover --arch a100 --gemm 128x128x128 --points 0.5 --out " + f);
  CHECK(file.status == 2);
  CHECK(file.err.find("Not a directory") != std::string::npos);
  CHECK(read(f) == "keep");
}
