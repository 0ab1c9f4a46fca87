// ops.csv beside stats.json (issue 17, item 2): one row per op, every stat a column, the
// same values as stats.json.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field), field.clear();
    } else if (c == '\n') {
      rows.back().push_back(field), field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("cli_ops_csv_has_a_row_per_op_with_the_stats_json_values", "[cli][stats]") {
  const std::string d = temp_dir("ops_csv");
  const auto r = run_stcsim(
      "run --arch a100 --gemm 256x256x512 --gemm 512x256x256 --sparsity 2:4 "
      "-q --out " +
      d);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto rows = parse_csv(slurp(d + "/ops.csv"));
  const auto stats = nlohmann::json::parse(slurp(d + "/stats.json"));
  REQUIRE(rows.size() == 1 + stats["ops"].size());
  std::map<std::string, std::size_t> col;
  for (std::size_t c = 0; c < rows[0].size(); ++c) col[rows[0][c]] = c;
  for (const char* name : {"name", "cycles", "seconds", "utilization.tensor", "speedup_vs_dense",
                           "mapping.cta_m", "variant"})
    CHECK(col.count(name) == 1);
  for (std::size_t i = 0; i < stats["ops"].size(); ++i) {
    const auto& op = stats["ops"][i];
    const auto& row = rows[i + 1];
    REQUIRE(row.size() == rows[0].size());
    CHECK(row[col["name"]] == op["name"].get<std::string>());
    CHECK(row[col["cycles"]] == op["cycles"].dump());
    CHECK(row[col["utilization.tensor"]] == op["utilization"]["tensor"].dump());
    CHECK(row[col["speedup_vs_dense"]] == op["speedup_vs_dense"].dump());
  }
}
