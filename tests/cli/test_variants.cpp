// stats.json carries each op's variant (what the user asked for: a --prune spec, the run's
// --sparsity / --block) and pattern (what its weights got), and per-variant totals when a
// run has several (issue 16 "Pruning", issue 17 item 2): speedups per variant without
// parsing op names.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

TEST_CASE("variants_ops_carry_variant_and_pattern", "[cli][variants]") {
  const auto sp = run_stats("--arch a100 --gemm 256x256x512 --sparsity 2:4");
  CHECK(sp["ops"][0]["variant"] == "2:4");
  CHECK(sp["ops"][0]["pattern"] == "2:4");
  CHECK(!sp.contains("variants"));  // one variant: the total is its total
  const auto blk = run_stats("--arch a100 --gemm 256x256x512 --block 32x32@0.5");
  CHECK(blk["ops"][0]["variant"] == "block:32x32@0.5");
  CHECK(blk["ops"][0]["pattern"] == "block:32x32");
  const auto dense = run_stats("--arch a100 --gemm 256x256x512");
  CHECK(dense["ops"][0]["variant"] == "dense");
  CHECK(dense["ops"][0]["pattern"] == "dense");
}

TEST_CASE("variants_model_run_totals_each_variant", "[cli][variants]") {
  const auto j = run_stats("--arch a100 --model bert_base --seq 16 --prune dense,2:4");
  REQUIRE(j.contains("variants"));
  REQUIRE(j["variants"].size() == 2);
  CHECK(j["variants"][0]["name"] == "dense");
  CHECK(j["variants"][1]["name"] == "2:4");
  double cycles[2] = {0, 0};
  for (const auto& op : j["ops"]) {
    const bool sparse = op["variant"] == "2:4";
    if (!sparse) CHECK(op["variant"] == "dense");
    // Every BERT weight's K is a multiple of 4; attention's products and the row ops
    // (softmax, norms, GELU, adds, the embedding) have no weight.
    const std::string name = op["name"];
    const bool no_weight = op.contains("row_op") || name.find(".attn_s") != std::string::npos ||
                           name.find(".attn_c") != std::string::npos;
    if (sparse) CHECK(op["pattern"] == (no_weight ? "dense" : "2:4"));
    cycles[sparse] += op["cycles"].get<double>();
  }
  CHECK(j["variants"][0]["cycles"].get<double>() == Approx(cycles[0]).epsilon(1e-12));
  CHECK(j["variants"][1]["cycles"].get<double>() == Approx(cycles[1]).epsilon(1e-12));
  // The sparse variant's comparison with its ops' dense twins; the dense one has none.
  CHECK(j["variants"][1].contains("speedup_vs_dense"));
  CHECK(!j["variants"][0].contains("speedup_vs_dense"));
}

TEST_CASE("variants_report_a_total_row_per_variant_and_whole_names", "[cli][variants]") {
  // The report never adds a dense run to its pruned copies in one total row, and never
  // cuts a name (the longest op name in stats.json is the longest first column).
  const auto r =
      run_stcsim("run --arch a100 --model bert_base --seq 16 --prune dense,block:32x32@0.5");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::vector<std::string> totals;
  std::size_t longest_op = 0;
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("total", 0) == 0) totals.push_back(l.substr(0, l.find("  ")));
    if (l.rfind("block:32x32@0.5/", 0) == 0) longest_op = std::max(longest_op, l.find(' '));
  }
  CHECK(totals == std::vector<std::string>{"total dense", "total block:32x32@0.5"});
  const auto j = run_stats("--arch a100 --model bert_base --seq 16 --prune dense,block:32x32@0.5");
  std::size_t longest_name = 0;
  for (const auto& op : j["ops"])
    if (op["variant"] == "block:32x32@0.5")
      longest_name = std::max(longest_name, op["name"].get<std::string>().size());
  CHECK(longest_op == longest_name);
}
