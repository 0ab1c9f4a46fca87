// Pruning safety (issue 16, item 3): layers excluded by a regular expression stay dense
// and say so; block pruning never removes a layer's last block; a density floor gives a
// layer back its best blocks and turns off an N:M pattern that keeps less.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "sim/core/input_error.h"
#include "workloads/pruning/block_floor.h"
#include "workloads/pruning/block_prune.h"
#include "workloads/pruning/prune_model.h"

using namespace stcsim;
using namespace stcsim::workloads;

namespace {

// Linear layers with Gaussian weights (never zero) from a fixed seed, [out, in] each.
Model linears(const std::vector<std::pair<std::string, std::pair<int, int>>>& shapes) {
  Model m;
  m.name = "m";
  m.real_weights = true;
  std::mt19937 rng(7);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  for (const auto& [name, shape] : shapes) {
    Layer l;
    l.name = name;
    l.out_features = shape.first;
    l.in_features = shape.second;
    l.weight = name + ".w";
    m.layers.push_back(l);
    Tensor t;
    t.name = l.weight;
    t.shape = {shape.first, shape.second};
    t.data.resize(std::size_t(shape.first) * shape.second);
    for (auto& v : t.data) {
      do v = nd(rng);
      while (v == 0.0f);
    }
    m.weights[t.name] = std::move(t);
  }
  return m;
}

std::int64_t nonzero_blocks(const PruneResult& r, const std::string& layer, int b) {
  const Tensor& t = r.model.weights.at(layer + ".w");
  const BlockGrid g{t.shape[0], t.shape[1], b, b};
  std::int64_t n = 0;
  const auto hist = panel_histogram(t.data, g);
  for (std::size_t j = 0; j < hist.size(); ++j) n += std::int64_t(j) * hist[j];
  return n;
}

}  // namespace

TEST_CASE("prune_floor_blocks_floor_counts", "[pruning][floor]") {
  CHECK(blocks_floor(1, 0) == 1);  // never the last block
  CHECK(blocks_floor(10, 0) == 1);
  CHECK(blocks_floor(4, 0.5) == 2);  // exact, not rounded up past it
  CHECK(blocks_floor(10, 0.55) == 6);
  CHECK(blocks_floor(10, 1) == 10);
  CHECK(blocks_floor(10, 2) == 10);  // clamped
}

TEST_CASE("prune_floor_small_layer_keeps_its_last_block", "[pruning][floor]") {
  // conv2d_10 of PP-OCRv4 is 16x27: one 32x32 block, which @0.5 removed whole.
  const Model m = linears({{"small", {16, 27}}, {"big", {128, 128}}});
  const PruneResult r = prune_model(m, PruneSpec::parse("block:32x32@0.5"));
  const LayerPruneReport& s = r.layers[0];
  CHECK(s.floored);
  CHECK(s.blocks_nonzero == 1);
  CHECK(s.sparsity == 0.0);  // its one block, whole
  CHECK(s.note.find("never the layer's last block") != std::string::npos);
  CHECK(s.note.find("the pattern alone kept 0") != std::string::npos);
  CHECK(s.applied == "block:32x32");
  // A big layer is pruned as asked and says nothing.
  CHECK_FALSE(r.layers[1].floored);
  CHECK(r.layers[1].note.empty());
  CHECK(r.layers[1].blocks_nonzero == 8);
  // Under one global threshold too.
  const PruneResult g = prune_model(m, PruneSpec::parse("block:32x32@0.5/global"));
  CHECK(nonzero_blocks(g, "small", 32) >= 1);
}

TEST_CASE("prune_floor_min_density_gives_back_the_best_blocks", "[pruning][floor]") {
  const Model m = linears({{"fc", {128, 128}}});
  PruneOptions opt;
  opt.min_density = 0.6;
  const PruneResult r = prune_model(m, PruneSpec::parse("block:32x32@0.75"), opt);
  CHECK(r.layers[0].floored);
  CHECK(r.layers[0].blocks_nonzero == 10);  // ceil(0.6 x 16)
  CHECK(r.layers[0].note.find("the density floor 0.6") != std::string::npos);
  CHECK(r.layers[0].note.find("the pattern alone kept 4") != std::string::npos);
  // The kept blocks are the best 10: every pruned one scores at most every kept one.
  const Tensor& before = m.weights.at("fc.w");
  const BlockGrid grid{128, 128, 32, 32};
  const auto scores = block_scores(before.data, grid);
  const auto after = block_scores(r.model.weights.at("fc.w").data, grid);
  double max_pruned = 0, min_kept = 1e30;
  for (std::size_t b = 0; b < scores.size(); ++b) {
    if (after[b] == 0)
      max_pruned = std::max(max_pruned, scores[b]);
    else
      min_kept = std::min(min_kept, scores[b]);
  }
  CHECK(max_pruned <= min_kept);
  // With 2:4 inside the blocks the floor is on the weights: 0.6 / 0.5 of the blocks.
  opt.min_density = 0.3;
  const PruneResult nm = prune_model(m, PruneSpec::parse("block:32x32@0.75+2:4"), opt);
  CHECK(nm.layers[0].blocks_nonzero == 10);
  CHECK(nm.layers[0].applied == "block:32x32+2:4");
}

TEST_CASE("prune_floor_nm_below_the_floor_is_not_applied", "[pruning][floor]") {
  const Model m = linears({{"fc", {64, 64}}});
  PruneOptions opt;
  opt.min_density = 0.6;
  const PruneResult r = prune_model(m, PruneSpec::parse("2:4"), opt);
  CHECK(r.layers[0].applied == "dense");
  CHECK(r.layers[0].zeros == 0);
  CHECK(r.layers[0].note ==
        "2:4 keeps 0.5 of the weights, below the density floor 0.6, so it "
        "does not apply");
  opt.min_density = 0.5;  // 2:4 meets a floor of 0.5
  CHECK(prune_model(m, PruneSpec::parse("2:4"), opt).layers[0].applied == "2:4");
  opt.min_density = 1.5;
  CHECK_THROWS_WITH(prune_model(m, PruneSpec::parse("2:4"), opt),
                    Catch::Contains("density floor must be in [0, 1]"));
}

TEST_CASE("prune_exclude_regex_leaves_layers_dense", "[pruning][floor]") {
  const Model m = linears({{"enc.qkv", {64, 64}}, {"enc.mlp_up", {64, 64}}, {"head", {64, 64}}});
  PruneOptions opt;
  opt.exclude_regex = "mlp|^head$";
  const PruneResult r = prune_model(m, PruneSpec::parse("2:4"), opt);
  CHECK(r.layers[0].applied == "2:4");
  CHECK_FALSE(r.layers[0].excluded);
  for (int i : {1, 2}) {
    CHECK(r.layers[i].applied == "dense");
    CHECK(r.layers[i].excluded);
    CHECK(r.layers[i].zeros == 0);
    CHECK(r.layers[i].note == "excluded: the name matches 'mlp|^head$'");
  }
  opt.exclude_regex = "(";
  CHECK_THROWS_WITH(prune_model(m, PruneSpec::parse("2:4"), opt),
                    Catch::Contains("exclude pattern '('"));
}
