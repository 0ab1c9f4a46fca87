// Pruning safety on the command line (issue 16, item 3 and "Pruning"): --exclude leaves
// layers dense and lists them; a layer that block pruning would empty keeps its last block
// (no "work inf" in the report); --min-density; shapes-only models pruned in blocks run on
// seeded synthetic weights, flagged in the output and in stats.json.
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>

#include "tests/support/run_stcsim.h"

using namespace stcsim::test;

namespace {

// A float32 .npy of `rows` x `cols` Gaussian values (never zero): one Linear layer.
std::string write_npy(const std::string& dir, const std::string& name, int rows, int cols) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  const std::string path = dir + "/" + name + ".npy";
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const std::uint16_t len = std::uint16_t(header.size());
  out.put(char(len & 0xff));
  out.put(char(len >> 8));
  out << header;
  std::mt19937 rng(3);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  for (int i = 0; i < rows * cols; ++i) {
    float v;
    do v = nd(rng);
    while (v == 0.0f);
    out.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
  return path;
}

}  // namespace

TEST_CASE("prune_cli_small_layer_keeps_its_last_block", "[cli][pruning]") {
  // 16x27: one 32x32 block, which block:32x32@0.5 used to remove whole.
  const std::string npy = write_npy(temp_dir("prune_small"), "small", 16, 27);
  const auto r = run_stcsim("run --arch a100 --model " + npy + " --prune block:32x32@0.5");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("work inf") == std::string::npos);
  CHECK(r.out.find("efficiency 0.00") == std::string::npos);
  CHECK(r.out.find("floored: keeps 1 of 1 blocks, never the layer's last block") !=
        std::string::npos);
  const auto j = run_stats("--arch a100 --model " + npy + " --prune block:32x32@0.5");
  const auto& op = j["ops"][0];
  CHECK(op["pattern"] == "block:32x32");
  CHECK(op["variant"] == "block:32x32@0.5");
  CHECK(op["block_sparse"]["density"] == 1.0);
  CHECK(op["reduction_factors"]["work_reduction"] == 1.0);
  CHECK(op["pruning_note"].get<std::string>().find("floored") != std::string::npos);
}

TEST_CASE("prune_cli_exclude_leaves_matching_layers_dense", "[cli][pruning]") {
  const std::string args =
      "--arch a100 --model bert_base --seq 16 --prune 2:4 --exclude 'mlp_(up|down)$'";
  const auto j = run_stats(args);
  int excluded = 0, sparse = 0, attention = 0;
  for (const auto& op : j["ops"]) {
    const std::string name = op["name"];
    if (op.contains("row_op")) {  // softmax, norms, GELU, adds: not GEMMs, no note
      CHECK(op["pattern"] == "dense");
      CHECK(!op.contains("pruning_note"));
    } else if (name.find(".attn_scores") != std::string::npos ||
               name.find(".attn_context") != std::string::npos) {
      ++attention;  // no weight operand: never pruned, and the note says why
      CHECK(op["pattern"] == "dense");
      CHECK(op["pruning_note"] == "attention: both operands are activations, nothing to prune");
    } else if (name.find(".mlp_") != std::string::npos) {
      ++excluded;
      CHECK(op["pattern"] == "dense");
      CHECK(op["variant"] == "2:4");
      CHECK(op["pruning_note"] == "excluded: the name matches 'mlp_(up|down)$'");
    } else {
      ++sparse;
      CHECK(op["pattern"] == "2:4");
      CHECK(!op.contains("pruning_note"));
    }
  }
  CHECK(excluded == 24);
  CHECK(sparse == 24);
  CHECK(attention == 24);
  const auto r = run_stcsim("run " + args);
  REQUIRE(r.status == 0);
  // One line for the attention GEMMs, not one per GEMM.
  CHECK(r.out.find("Pruning: 24 attention GEMMs stay dense") != std::string::npos);
  CHECK(r.out.find("2:4/bert_base.l0.attn_scores:") == std::string::npos);
  CHECK(r.out.find("Pruning: layers skipped, partly pruned or floored:") != std::string::npos);
  CHECK(r.out.find("2:4/bert_base.l0.mlp_up: excluded: the name matches") != std::string::npos);
  // stcsim trace takes it too, and says so per layer.
  const auto t =
      run_stcsim("trace --model bert_base --prune 2:4 --exclude 'mlp_(up|down)$' --out " +
                 temp_dir("prune_trace") + "/b.trace");
  REQUIRE(t.status == 0);
  CHECK(t.out.find("bert_base.l0.mlp_up\tdense") != std::string::npos);
  CHECK(t.out.find("(excluded: the name matches 'mlp_(up|down)$')") != std::string::npos);
  const auto bad = run_stcsim("run --arch a100 --model bert_base --prune 2:4 --exclude '(' -q");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--exclude: expected a regular expression") != std::string::npos);
}

TEST_CASE("prune_cli_min_density_floors_blocks_and_nm", "[cli][pruning]") {
  const std::string npy = write_npy(temp_dir("prune_floor"), "fc", 256, 256);
  const auto j =
      run_stats("--arch a100 --model " + npy + " --prune block:32x32@0.75,2:4 --min-density 0.6");
  REQUIRE(j["ops"].size() == 2);
  CHECK(j["ops"][0]["block_sparse"]["density"].get<double>() >= 0.6);
  CHECK(j["ops"][1]["pattern"] == "dense");  // 2:4 keeps 0.5 < 0.6
  CHECK(j["ops"][1]["pruning_note"].get<std::string>().find("below the density floor 0.6") !=
        std::string::npos);
  const auto bad = run_stcsim("run --arch a100 --model " + npy + " --min-density 2 -q");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--min-density") != std::string::npos);
}

TEST_CASE("prune_cli_shapes_only_block_runs_on_synthetic_weights", "[cli][pruning]") {
  const std::string args = "--arch a100 --model dlrm_kaggle --batch 64 --prune block:32x32@0.5";
  const auto j = run_stats(args);
  for (const auto& op : j["ops"]) {
    INFO(op["name"]);
    CHECK(op["synthetic_weights"] == 1);
    CHECK(op.contains("block_sparse"));  // on the block-skipping kernel, not dense
    CHECK(op["pattern"].get<std::string>().rfind("block:32x32", 0) == 0);
  }
  const auto r = run_stcsim("run " + args);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Synthetic weights: 7 block-pruned GEMMs of a shapes-only model") !=
        std::string::npos);
  // The seed picks the weights, so the maps: the same seed gives the same run.
  CHECK(run_stats(args + " --block-seed 1")["total"]["cycles"] == j["total"]["cycles"]);
  // N:M needs no values: no synthetic weights.
  const auto nm = run_stats("--arch a100 --model dlrm_kaggle --batch 64 --prune 2:4");
  for (const auto& op : nm["ops"]) CHECK(!op.contains("synthetic_weights"));
}
