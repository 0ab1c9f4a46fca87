// Exact invariants of N:M and block pruning, the per-layer report, determinism.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "sim/core/input_error.h"
#include "workloads/pruning/block_prune.h"
#include "workloads/pruning/prune_model.h"

using namespace stcsim;
using namespace stcsim::workloads;

namespace {

// Gaussian weights, never zero, from a fixed seed.
std::vector<float> random_weights(std::int64_t rows, std::int64_t cols, unsigned seed,
                                  float scale = 1.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, scale);
  std::vector<float> w(std::size_t(rows * cols));
  for (auto& v : w) {
    do v = nd(rng);
    while (v == 0.0f);
  }
  return w;
}

Model one_linear(std::int64_t out, std::int64_t in, std::vector<float> w,
                 const std::string& name = "fc") {
  Model m;
  m.name = "m";
  m.real_weights = true;
  Layer l;
  l.name = name;
  l.in_features = in;
  l.out_features = out;
  l.weight = name + ".w";
  m.layers.push_back(l);
  Tensor t;
  t.name = l.weight;
  t.shape = {out, in};
  t.data = std::move(w);
  t.stored_dtype = "float32";
  m.weights[l.weight] = std::move(t);
  return m;
}

const std::vector<float>& weights_of(const PruneResult& r, const std::string& layer = "fc") {
  return r.model.weights.at(layer + ".w").data;
}

bool bit_equal(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Checks the block invariants of `after` (pruned from `before`): every block is all zero
// or untouched, pruned blocks score no higher than kept ones; returns the pruned elements.
std::int64_t check_blocks(const std::vector<float>& before, const std::vector<float>& after,
                          const BlockGrid& g, double& max_pruned_score, double& min_kept_score) {
  const auto scores = block_scores(before, g);
  std::int64_t pruned = 0;
  for (std::int64_t b = 0; b < g.count(); ++b) {
    const std::int64_t bi = b / g.grid_cols(), bj = b % g.grid_cols();
    bool all_zero = true, untouched = true;
    for (std::int64_t i = bi * g.r; i < std::min(g.rows, (bi + 1) * g.r); ++i)
      for (std::int64_t j = bj * g.c; j < std::min(g.cols, (bj + 1) * g.c); ++j) {
        const std::size_t e = std::size_t(i * g.cols + j);
        all_zero = all_zero && is_zero_bits(after[e]);
        untouched = untouched && after[e] == before[e];
      }
    REQUIRE((all_zero || untouched));
    if (all_zero) {
      pruned += g.area(b);
      max_pruned_score = std::max(max_pruned_score, scores[std::size_t(b)]);
    } else {
      min_kept_score = std::min(min_kept_score, scores[std::size_t(b)]);
    }
  }
  return pruned;
}

}  // namespace

TEST_CASE("nm_every_group_keeps_at_most_n_and_they_are_the_largest", "[pruning]") {
  for (const char* pat : {"2:4", "1:4", "2:8", "4:8"}) {
    INFO(pat);
    const std::int64_t rows = 24, cols = 64;
    const auto w = random_weights(rows, cols, 7);
    const PruneSpec spec = PruneSpec::parse(pat);
    const PruneResult r = prune_model(one_linear(rows, cols, w), spec);
    const auto& p = weights_of(r);
    const int n = spec.nm.n, m = spec.nm.m;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t g = 0; g < cols / m; ++g) {
        const std::size_t base = std::size_t(i * cols + g * m);
        int nz = 0;
        float min_kept = INFINITY, max_dropped = 0;
        for (int j = 0; j < m; ++j) {
          const float v = p[base + j], orig = w[base + j];
          if (v != 0.0f) {
            ++nz;
            REQUIRE(v == orig);  // kept values are untouched
            min_kept = std::min(min_kept, std::fabs(orig));
          } else {
            max_dropped = std::max(max_dropped, std::fabs(orig));
          }
        }
        REQUIRE(nz == n);  // no zeros in the input: exactly N survive
        REQUIRE(min_kept >= max_dropped);
      }
    CHECK(r.layers[0].applied == pat);
    CHECK(r.layers[0].sparsity == Approx(1.0 - double(n) / m));
  }
}

TEST_CASE("nm_ties_keep_the_lower_index", "[pruning]") {
  std::vector<float> w = {1, -1, 1, 1, 0.5f, 2, 2, 2};
  const PruneResult r = prune_model(one_linear(1, 8, w), PruneSpec::parse("2:4"));
  CHECK(weights_of(r) == std::vector<float>{1, -1, 0, 0, 0, 2, 2, 0});
}

TEST_CASE("block_pruned_blocks_are_zero_and_sparsity_within_one_block", "[pruning]") {
  const std::pair<int, int> shapes[] = {{2, 1}, {4, 1}, {4, 16}, {16, 16}, {32, 32}, {64, 64}};
  const std::pair<std::int64_t, std::int64_t> dims[] = {{128, 256}, {100, 200}, {70, 33}};
  for (auto [r, c] : shapes)
    for (auto [rows, cols] : dims)
      for (double target : {0.0, 0.3, 0.75, 0.9}) {
        INFO(r << "x" << c << " on " << rows << "x" << cols << " to " << target);
        const auto w = random_weights(rows, cols, unsigned(r * 131 + c + rows));
        PruneSpec spec =
            PruneSpec::parse("block:" + std::to_string(r) + "x" + std::to_string(c) + "@0.5");
        spec.target = target;
        const PruneResult res = prune_model(one_linear(rows, cols, w), spec);
        const auto& p = weights_of(res);
        const BlockGrid g{rows, cols, r, c};
        double max_pruned = -1, min_kept = INFINITY;
        const std::int64_t pruned = check_blocks(w, p, g, max_pruned, min_kept);
        CHECK(max_pruned <= min_kept);
        std::int64_t max_area = 0;
        for (std::int64_t b = 0; b < g.count(); ++b) max_area = std::max(max_area, g.area(b));
        CHECK(std::fabs(double(pruned) - target * rows * cols) <= max_area / 2.0);
        const LayerPruneReport& rep = res.layers[0];
        CHECK(rep.zeros == pruned);  // the input has no zeros
        CHECK(rep.sparsity == Approx(double(pruned) / double(rows * cols)));
        CHECK(rep.applied == spec.sparsity_label());
        // Histogram: one entry per panel, nonzero blocks as counted by hand.
        std::int64_t panels = 0, nz_blocks = 0;
        for (std::size_t j = 0; j < rep.panel_histogram.size(); ++j) {
          panels += rep.panel_histogram[j];
          nz_blocks += std::int64_t(j) * rep.panel_histogram[j];
        }
        CHECK(panels == g.grid_rows());
        CHECK(rep.panel_histogram.size() == std::size_t(g.grid_cols() + 1));
        CHECK(rep.blocks_total == g.count());
        CHECK(rep.blocks_nonzero == nz_blocks);
        const auto after_scores = block_scores(p, g);
        CHECK(nz_blocks ==
              g.count() - std::int64_t(std::count(after_scores.begin(), after_scores.end(), 0.0)));
      }
}

TEST_CASE("block_report_magnitude_and_histogram_by_hand", "[pruning]") {
  // 4 x 4 matrix in 2x2 blocks with norms^2 (mean squares) 1, 4, 9, 16 (row-major).
  std::vector<float> w = {1, 1, 2, 2,  //
                          1, 1, 2, 2,  //
                          3, 3, 4, 4,  //
                          3, 3, 4, 4};
  const PruneResult r = prune_model(one_linear(4, 4, w), PruneSpec::parse("block:2x2@0.5"));
  CHECK(weights_of(r) == std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 4, 4, 3, 3, 4, 4});
  const LayerPruneReport& rep = r.layers[0];
  CHECK(rep.sparsity == 0.5);
  CHECK(rep.magnitude_kept ==
        Approx((4 * 9.0 + 4 * 16.0) / (4 * 1.0 + 4 * 4.0 + 4 * 9.0 + 4 * 16.0)));
  CHECK(rep.panel_histogram == std::vector<std::int64_t>{1, 0, 1});  // one empty panel, one full
  CHECK(rep.blocks_nonzero == 2);
}

TEST_CASE("block_ties_keep_the_lower_index", "[pruning]") {
  const std::vector<float> w(8 * 8, 1.0f);
  const PruneResult r = prune_model(one_linear(8, 8, w), PruneSpec::parse("block:4x4@0.5"));
  const auto& p = weights_of(r);
  CHECK(p[0] == 1.0f);          // block 0 kept
  CHECK(p[4] == 1.0f);          // block 1 kept
  CHECK(p[4 * 8] == 0.0f);      // block 2 pruned
  CHECK(p[4 * 8 + 4] == 0.0f);  // block 3 pruned
}

TEST_CASE("block_with_inner_2_4", "[pruning]") {
  for (auto [r, c] : {std::pair{4, 1}, {4, 16}, {16, 16}}) {
    INFO(r << "x" << c);
    const std::int64_t rows = 64, cols = 128;
    const auto w = random_weights(rows, cols, 11);
    const PruneSpec spec =
        PruneSpec::parse("block:" + std::to_string(r) + "x" + std::to_string(c) + "@0.6+2:4");
    const PruneResult res = prune_model(one_linear(rows, cols, w), spec);
    const auto& p = weights_of(res);
    // The block step alone, to know which blocks were pruned.
    PruneSpec only_blocks = spec;
    only_blocks.inner_nm = false;
    const PruneResult block_step = prune_model(one_linear(rows, cols, w), only_blocks);
    const auto& blocks = weights_of(block_step);
    for (std::size_t e = 0; e < p.size(); ++e)
      if (blocks[e] == 0.0f) REQUIRE(p[e] == 0.0f);  // pruned blocks stay zero
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t g = 0; g < cols / 4; ++g) {
        int nz = 0;
        float min_kept = INFINITY, max_dropped = 0;
        for (int j = 0; j < 4; ++j) {
          const std::size_t e = std::size_t(i * cols + g * 4 + j);
          if (p[e] != 0.0f)
            ++nz, min_kept = std::min(min_kept, std::fabs(blocks[e]));
          else
            max_dropped = std::max(max_dropped, std::fabs(blocks[e]));
        }
        REQUIRE(nz <= 2);
        REQUIRE((nz == 0 || min_kept >= max_dropped));
      }
    CHECK(res.layers[0].applied == spec.sparsity_label());
    // With c a multiple of 4 the 2:4 groups lie inside blocks: half of the kept 40% goes.
    // With c = 1 a group spans 4 blocks and already-pruned elements count toward its 2 zeros.
    if (c % 4 == 0)
      CHECK(res.layers[0].sparsity == Approx(1 - 0.4 * 0.5).margin(0.02));
    else
      CHECK(res.layers[0].sparsity > 0.6);
  }
}

TEST_CASE("block_global_uses_one_threshold", "[pruning]") {
  Model m = one_linear(64, 64, random_weights(64, 64, 1, 1.0f), "a");
  Model b = one_linear(64, 64, random_weights(64, 64, 2, 10.0f), "b");
  m.layers.push_back(b.layers[0]);
  m.weights["b.w"] = b.weights["b.w"];
  const PruneResult g = prune_model(m, PruneSpec::parse("block:8x8@0.5/global"));
  const PruneResult l = prune_model(m, PruneSpec::parse("block:8x8@0.5"));
  // Globally, the small layer loses (nearly) everything first; per layer, each loses half.
  CHECK(g.layers[0].sparsity > 0.9);
  CHECK(g.layers[1].sparsity < 0.1);
  CHECK(g.sparsity == Approx(0.5).margin(64.0 / (2 * 64 * 64)));
  CHECK(l.layers[0].sparsity == Approx(0.5).margin(32.0 / (64 * 64)));
  CHECK(l.layers[1].sparsity == Approx(0.5).margin(32.0 / (64 * 64)));
  // One threshold: every pruned block of either layer scores <= every kept block.
  double max_pruned = -1, min_kept = INFINITY;
  for (const char* name : {"a", "b"})
    check_blocks(m.weights.at(std::string(name) + ".w").data, weights_of(g, name),
                 BlockGrid{64, 64, 8, 8}, max_pruned, min_kept);
  CHECK(max_pruned <= min_kept);
}

TEST_CASE("pruning_is_deterministic", "[pruning]") {
  const auto w = random_weights(96, 160, 5);
  for (const char* spec :
       {"2:4", "block:4x1@0.9+2:4", "block:32x32@0.75", "block:16x16@0.8/global"}) {
    INFO(spec);
    const PruneResult a = prune_model(one_linear(96, 160, w), PruneSpec::parse(spec));
    const PruneResult b = prune_model(one_linear(96, 160, w), PruneSpec::parse(spec));
    CHECK(bit_equal(weights_of(a), weights_of(b)));
    CHECK(a.layers[0].panel_histogram == b.layers[0].panel_histogram);
  }
}

TEST_CASE("layers_that_cannot_take_nm_stay_dense_and_say_why", "[pruning]") {
  Model m;
  m.name = "cnn";
  Layer c1;
  c1.name = "conv1";
  c1.kind = LayerKind::Conv2d;
  c1.in_features = 3;
  c1.out_features = 8;
  c1.kernel_h = c1.kernel_w = 7;
  c1.in_h = c1.in_w = 32;
  c1.weight = "conv1.w";
  m.weights["conv1.w"] = Tensor{"conv1.w", {8, 3, 7, 7}, random_weights(8, 147, 3), "float32"};
  m.layers.push_back(c1);
  PruneResult r = prune_model(m, PruneSpec::parse("2:4"));
  CHECK(r.layers[0].applied == "dense");
  CHECK_THAT(r.layers[0].note, Catch::Contains("K = 147 is not a multiple of 4"));
  CHECK(r.layers[0].sparsity == 0.0);
  // Block + N:M keeps its block part.
  r = prune_model(m, PruneSpec::parse("block:2x7@0.5+2:4"));
  CHECK(r.layers[0].applied == "block:2x7");
  CHECK(r.layers[0].sparsity == Approx(0.5).margin(7.0 / (8 * 147)));
  PruneOptions strict;
  strict.skip_incompatible = false;
  CHECK_THROWS_WITH(prune_model(m, PruneSpec::parse("2:4"), strict),
                    Catch::Contains("layer 'conv1'"));
  PruneOptions ex;
  ex.exclude = {"conv1"};
  r = prune_model(m, PruneSpec::parse("block:2x7@0.5"), ex);
  CHECK(r.layers[0].applied == "dense");
  CHECK(r.layers[0].note == "excluded");
  CHECK(r.layers[0].sparsity == 0.0);
}

TEST_CASE("shape_only_layers_record_the_pattern", "[pruning]") {
  Model m = one_linear(16, 16, {});
  m.weights.clear();
  m.layers[0].weight.clear();
  const PruneResult r = prune_model(m, PruneSpec::parse("block:4x4@0.75+2:4"));
  CHECK_FALSE(r.layers[0].has_weights);
  CHECK(r.layers[0].applied == "block:4x4+2:4");
  CHECK(r.layers[0].sparsity == Approx(1 - 0.25 * 0.5));
  CHECK(std::isnan(r.layers[0].magnitude_kept));
}

TEST_CASE("synthetic_weights_are_deterministic_and_labelled", "[pruning]") {
  Model m = one_linear(64, 32, {});
  m.weights.clear();
  m.layers[0].weight.clear();
  const Model a = with_synthetic_weights(m, 42), b = with_synthetic_weights(m, 42),
              c = with_synthetic_weights(m, 43);
  const Tensor& ta = a.weights.at("fc.weight");
  CHECK(ta.shape == std::vector<std::int64_t>{64, 32});
  CHECK(ta.stored_dtype == "synthetic_normal");
  CHECK(bit_equal(ta.data, b.weights.at("fc.weight").data));
  CHECK_FALSE(bit_equal(ta.data, c.weights.at("fc.weight").data));
  double sq = 0;
  for (float v : ta.data) sq += double(v) * v;
  CHECK(sq / ta.data.size() == Approx(1.0 / 32).epsilon(0.15));
  CHECK_FALSE(a.real_weights);
  CHECK_THROWS_WITH(with_synthetic_weights(m, 1, 100), Catch::Contains("limit"));
}

TEST_CASE("weight_size_mismatch_is_an_input_error", "[pruning]") {
  Model m = one_linear(4, 4, std::vector<float>(15, 1.0f));
  CHECK_THROWS_WITH(prune_model(m, PruneSpec::parse("2:4")), Catch::Contains("holds 15 values"));
}
