// Hand-written measurement tables (validation/compare/measurements_csv.h): read into the
// same records as the harness's JSON, and refused with the file, the line and the column
// named when malformed.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/input_error.h"
#include "validation/compare/measurements.h"
#include "validation/compare/measurements_csv.h"

using namespace stcsim;
using namespace stcsim::validation;
using Catch::Matchers::Contains;

namespace {

MeasurementFile parse(const std::string& text) {
  std::istringstream in(text);
  return parse_measurements_csv(in, "t.csv");
}

const std::string kHeader = "device,name,m,n,k,kernel,time_us\n";

}  // namespace

TEST_CASE("measurements_csv_reads_every_column", "[validation][measurements]") {
  const MeasurementFile f = parse(
      "# a comment, then a blank line\n\n"
      "time_us, kernel ,name,device,m,n,k,dtype,sparsity,sm_clock_mhz,runs,preset,mapping,block,"
      "pruned\n"
      "12.5,stcsim_bsr,\"mlp, up\",NVIDIA H200,128,3072,768,bf16,bsr,1755,100,h200,"
      "128x128x32/64x64 s4 sw8 split2,32x32,0.75\n"
      "3,cublas,x,NVIDIA H200,8,16,32,,,,,,,,\n");
  CHECK(f.path == "t.csv");
  CHECK(f.device_name == "NVIDIA H200");
  CHECK(f.preset == "h200");
  REQUIRE(f.gemms.size() == 2);
  const MeasuredGemm& g = f.gemms[0];
  CHECK(g.name == "mlp, up");
  CHECK(g.file == "t.csv");
  CHECK((g.m == 128 && g.n == 3072 && g.k == 768));
  CHECK(g.kernel == "stcsim_bsr");
  CHECK(g.time_us == 12.5);
  CHECK(g.dtype == "bf16");
  CHECK(g.sparsity == "bsr");
  REQUIRE(g.sm_clock_mhz);
  CHECK(*g.sm_clock_mhz == 1755);
  CHECK(g.runs == 100);
  REQUIRE(g.mapping);
  CHECK(g.mapping->str() == "128x128x32/64x64 s4 sw8");
  CHECK(g.mapping->split_k == 2);
  CHECK((g.block_rows == 32 && g.block_cols == 32));
  CHECK(g.pruned == 0.75);
  // Empty optional fields take the JSON defaults.
  const MeasuredGemm& d = f.gemms[1];
  CHECK(d.dtype == "fp16");
  CHECK(d.sparsity == "dense");
  CHECK(!d.sm_clock_mhz);
  CHECK(!d.mapping);
}

TEST_CASE("measurements_csv_errors_name_the_line_and_column", "[validation][measurements]") {
  struct Case {
    std::string text, expected;
  } cases[] = {
      {"", "no header row"},
      {kHeader, "a header but no measured GEMM"},
      {"device,name,m,n,k,time_us\n", "no 'kernel' column"},
      {"device,name,m,n,k,kernel,time_us,speed\n", "t.csv:1: unknown column 'speed'"},
      {"device,name,m,m,n,k,kernel,time_us\n", "column 'm' given twice"},
      {kHeader + "A100,g,8,8,8,cublas\n", "t.csv:2: 6 fields, the header has 7"},
      {kHeader + "A100,g,8,8,8,cublas,1,2\n", "t.csv:2: 8 fields"},
      {kHeader + "A100,g,8x,8,8,cublas,1\n", "t.csv:2: column 'm': expected a positive integer"},
      {kHeader + "A100,g,-8,8,8,cublas,1\n", "column 'm': expected a positive integer"},
      {kHeader + "A100,g,8,8,8,cublas,0\n", "column 'time_us': expected a time"},
      {kHeader + "A100,g,8,8,8,cublas,nan\n", "column 'time_us'"},
      {kHeader + "A100,,8,8,8,cublas,1\n", "column 'name' is empty"},
      {kHeader + "A100,g,8,8,8,cublas,1\nH100,g,8,8,8,cublas,1\n",
       "t.csv:3: device 'H100', earlier rows say 'A100'"},
      {kHeader + "\"A100,g,8,8,8,cublas,1\n", "t.csv:2: a double quote is not closed"},
      {"device,name,m,n,k,kernel,time_us,mapping\nA100,g,8,8,8,cublas,1,128x128\n",
       "column 'mapping': expected a mapping"},
      {"device,name,m,n,k,kernel,time_us,block\nA100,g,8,8,8,cublas,1,0x32\n",
       "column 'block': expected a block shape"},
      {"device,name,m,n,k,kernel,time_us,pruned\nA100,g,8,8,8,cublas,1,1\n",
       "column 'pruned': expected the fraction pruned"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THROWS_AS(parse(c.text), InputError);
    CHECK_THROWS_WITH(parse(c.text), Contains(c.expected));
  }
}

TEST_CASE("measurements_csv_and_json_load_from_one_directory", "[validation][measurements]") {
  const auto dir = std::filesystem::temp_directory_path() / "stcsim-test-measurements-csv";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  std::ofstream((dir / "sub" / "b.csv").string()) << kHeader << "NVIDIA A100,g,8,8,8,cublas,1\n";
  std::ofstream((dir / "a.json").string())
      << R"({"schema": "stcsim-measurements/1", "device": {"name": "NVIDIA A100"}, "gemms": []})";
  std::ofstream((dir / "notes.txt").string()) << "not a measurement";
  const auto files = load_measurements(dir.string());
  REQUIRE(files.size() == 2);
  CHECK(files[0].path == (dir / "a.json").string());
  CHECK(files[1].path == (dir / "sub" / "b.csv").string());
  CHECK(files[1].gemms.size() == 1);
  // A directory with neither says which extensions it looked for.
  std::filesystem::create_directories(dir / "empty");
  CHECK_THROWS_WITH(load_measurements((dir / "empty").string()), Contains("*.json or *.csv"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("measurements_mapping_text_round_trips", "[validation][measurements]") {
  const auto m = parse_mapping_text("256x128x64/64x64 s3 sw8");
  REQUIRE(m);
  CHECK(m->str() == "256x128x64/64x64 s3 sw8");
  CHECK(m->split_k == 1);
  CHECK(parse_mapping_text("128x128x32/64x64 s4")->swizzle == 1);
  CHECK(!parse_mapping_text("128x128x32/64x64"));
  CHECK(!parse_mapping_text("128x128x32/64x64 s4 sw"));
}
