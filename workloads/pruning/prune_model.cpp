#include "workloads/pruning/prune_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "models/common/splitmix64.h"
#include "sim/core/input_error.h"
#include "workloads/pruning/block_floor.h"
#include "workloads/pruning/block_prune.h"

namespace stcsim::workloads {

namespace {

std::string n2s(std::int64_t v) { return std::to_string(v); }

std::string d2s(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

double sum_squares(const std::vector<float>& w) {
  double s = 0;
  for (float v : w)
    if (!std::isnan(v)) s += double(v) * double(v);
  return s;
}

std::int64_t count_zeros(const std::vector<float>& w) {
  std::int64_t z = 0;
  for (float v : w) z += is_zero_bits(v);
  return z;
}

// One layer being pruned.
struct Work {
  std::size_t layer = 0;
  LayerPruneReport report;
  std::vector<float>* w = nullptr;  // the pruned model's tensor data
  double before = 0;                // sum of squares before
  bool block = false;               // the block part applies
  bool nm = false;                  // the N:M part applies
};

}  // namespace

void weight_matrix_shape(const Layer& l, std::int64_t& rows, std::int64_t& cols) {
  if (l.in_features < 1 || l.out_features < 1)
    throw InputError("layer '" + l.name + "': in and out features must be >= 1");
  if (l.kind == LayerKind::Linear) {
    rows = l.out_features;
    cols = l.in_features;
    return;
  }
  if (l.groups < 1 || l.in_features % l.groups || l.out_features % l.groups || l.kernel_h < 1 ||
      l.kernel_w < 1)
    throw InputError("layer '" + l.name + "': groups " + n2s(l.groups) + " and kernel " +
                     n2s(l.kernel_h) + "x" + n2s(l.kernel_w) + " do not fit channels " +
                     n2s(l.in_features) + " -> " + n2s(l.out_features));
  rows = l.out_features;
  cols = l.in_features / l.groups * l.kernel_h * l.kernel_w;
}

PruneResult prune_model(const Model& model, const PruneSpec& spec, const PruneOptions& opt) {
  PruneResult res;
  res.model = model;
  res.spec = spec;
  const std::set<std::string> exclude(opt.exclude.begin(), opt.exclude.end());
  if (!(opt.min_density >= 0 && opt.min_density <= 1))
    throw InputError("pruning: the density floor must be in [0, 1], got " + d2s(opt.min_density));
  std::regex exclude_re;
  if (!opt.exclude_regex.empty()) try {
      exclude_re = std::regex(opt.exclude_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw InputError("exclude pattern '" + opt.exclude_regex +
                       "': not a regular expression (ECMAScript): " + e.what());
    }
  const auto excluded = [&](const std::string& name) {
    return exclude.count(name) ||
           (!opt.exclude_regex.empty() && std::regex_search(name, exclude_re));
  };
  std::set<std::string> seen_weights;
  std::vector<Work> work;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    LayerPruneReport r;
    r.layer = l.name;
    r.weight = l.weight;
    if (!l.has_weight_operand()) {
      // Attention's products multiply activations by activations: no weight to prune
      // (a row op is not a product at all, and needs no note).
      if (spec.kind != PruneSpec::Kind::Dense && l.kind != LayerKind::RowOp) r.note = kNoteNoWeight;
      Work wk;
      wk.layer = i;
      wk.report = std::move(r);
      work.push_back(std::move(wk));
      continue;
    }
    weight_matrix_shape(l, r.rows, r.cols);
    r.elements = r.rows * r.cols;
    auto it = l.weight.empty() ? res.model.weights.end() : res.model.weights.find(l.weight);
    r.has_weights = it != res.model.weights.end();
    Work wk;
    wk.layer = i;
    if (r.has_weights) {
      if (it->second.numel() != r.elements || std::int64_t(it->second.data.size()) != r.elements)
        throw InputError("layer '" + l.name + "': weight '" + l.weight + "' holds " +
                         n2s(std::int64_t(it->second.data.size())) + " values, the layer needs " +
                         n2s(r.rows) + "x" + n2s(r.cols) + " = " + n2s(r.elements));
      wk.w = &it->second.data;
      wk.before = sum_squares(*wk.w);
    }
    if (spec.kind == PruneSpec::Kind::Dense) {
    } else if (excluded(l.name)) {
      r.note = exclude.count(l.name) ? "excluded"
                                     : "excluded: the name matches '" + opt.exclude_regex + "'";
      r.excluded = true;
    } else if (r.has_weights && !seen_weights.insert(l.weight).second) {
      r.note = "weight '" + l.weight + "' is shared with an earlier layer and was pruned there";
      r.applied = spec.sparsity_label();
    } else {
      wk.block = spec.kind == PruneSpec::Kind::Block;
      wk.nm = spec.kind == PruneSpec::Kind::Nm || spec.inner_nm;
      if (wk.nm && r.cols % spec.nm.m) {
        const std::string why = "K = " + n2s(r.cols) + " is not a multiple of " + n2s(spec.nm.m) +
                                ", so " + spec.nm.str() + " does not apply";
        if (!opt.skip_incompatible) throw InputError("layer '" + l.name + "': " + why);
        r.note = why;
        wk.nm = false;
      }
      const std::int64_t per_group = l.out_features / std::max<std::int64_t>(1, l.groups);
      if (wk.block && l.groups > 1 && per_group % spec.block_rows) {
        // Each group is its own GEMM: a block of r rows would join output channels of
        // different groups (a depthwise conv has one per group), which no block kernel
        // can skip together.
        const std::string why = "out_features / groups = " + n2s(per_group) +
                                " is not a multiple of " + n2s(spec.block_rows) + ", so " +
                                n2s(spec.block_rows) + "-row blocks would straddle groups";
        if (!opt.skip_incompatible) throw InputError("layer '" + l.name + "': " + why);
        r.note = r.note.empty() ? why : r.note + "; " + why;
        wk.block = false;
      }
      const double nm_density = double(spec.nm.n) / spec.nm.m;
      if (wk.nm && nm_density < opt.min_density) {
        const std::string why = spec.nm.str() + " keeps " + d2s(nm_density) +
                                " of the weights, below the density floor " + d2s(opt.min_density) +
                                ", so it does not apply";
        r.note = r.note.empty() ? why : r.note + "; " + why;
        wk.nm = false;
      }
      if (wk.block) {
        PruneSpec applied = spec;
        applied.inner_nm = wk.nm;
        r.applied = applied.sparsity_label();
      } else if (wk.nm) {
        r.applied = spec.kind == PruneSpec::Kind::Block ? spec.nm.str() : spec.sparsity_label();
      }
    }
    if (wk.block) {
      r.block_rows = spec.block_rows;
      r.block_cols = spec.block_cols;
    }
    wk.report = std::move(r);
    work.push_back(std::move(wk));
  }

  // Block selection: per layer, or jointly over every layer it applies to.
  if (spec.kind == PruneSpec::Kind::Block) {
    std::vector<Work*> group;
    for (auto& wk : work)
      if (wk.block && wk.w) group.push_back(&wk);
    auto prune_group = [&](const std::vector<Work*>& g) {
      std::vector<BlockGrid> grids;
      std::vector<std::vector<double>> scores;
      for (Work* wk : g) {
        grids.push_back({wk->report.rows, wk->report.cols, spec.block_rows, spec.block_cols});
        scores.push_back(block_scores(*wk->w, grids.back()));
      }
      auto flags = select_blocks_to_prune(grids, scores, spec.target);
      for (std::size_t i = 0; i < g.size(); ++i) {
        LayerPruneReport& r = g[i]->report;
        // The floor on the weights' density, in blocks: N:M inside keeps N/M of each.
        const double inner = g[i]->nm ? double(spec.nm.n) / spec.nm.m : 1.0;
        const std::int64_t count = grids[i].count(),
                           floor = blocks_floor(count, opt.min_density / inner);
        const std::int64_t before = apply_block_floor(flags[i], scores[i], floor);
        if (before < floor) {
          const std::string why =
              "floored: keeps " + n2s(floor) + " of " + n2s(count) + " blocks, " +
              (opt.min_density > 0 && floor > 1 ? "the density floor " + d2s(opt.min_density)
                                                : std::string("never the layer's last block")) +
              " (the pattern alone kept " + n2s(before) + ")";
          r.note = r.note.empty() ? why : r.note + "; " + why;
          r.floored = true;
        }
        zero_blocks(*g[i]->w, grids[i], flags[i]);
      }
    };
    if (spec.global)
      prune_group(group);
    else
      for (Work* wk : group) prune_group({wk});
  }

  double zeros = 0, elements = 0, before = 0, after = 0;
  for (auto& wk : work) {
    LayerPruneReport& r = wk.report;
    if (wk.nm && wk.w) *wk.w = prune_nm_matrix(*wk.w, r.rows, r.cols, spec.nm);
    if (wk.w) {
      r.zeros = count_zeros(*wk.w);
      r.sparsity = r.elements ? double(r.zeros) / double(r.elements) : 0.0;
      const double kept = sum_squares(*wk.w);
      r.magnitude_kept = wk.before > 0 ? kept / wk.before : 1.0;
      if (r.block_rows > 0) {
        const BlockGrid g{r.rows, r.cols, r.block_rows, r.block_cols};
        r.panel_histogram = panel_histogram(*wk.w, g);
        r.blocks_total = g.count();
        for (std::size_t j = 0; j < r.panel_histogram.size(); ++j)
          r.blocks_nonzero += std::int64_t(j) * r.panel_histogram[j];
      }
      zeros += double(r.zeros);
      elements += double(r.elements);
      before += wk.before;
      after += kept;
    } else {
      PruneSpec applied = spec;
      if (r.applied == "dense")
        applied = PruneSpec{};
      else if (spec.kind == PruneSpec::Kind::Block)
        applied.inner_nm = wk.nm;
      r.sparsity = applied.nominal_sparsity();
      r.magnitude_kept = std::numeric_limits<double>::quiet_NaN();
    }
    res.layers.push_back(std::move(r));
  }
  res.sparsity = elements > 0 ? zeros / elements : 0.0;
  res.magnitude_kept = before > 0 ? after / before : 1.0;
  return res;
}

namespace {

// Uniform in (0, 1): the top 53 bits, never 0.
double unit(std::uint64_t bits) { return (double(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

}  // namespace

Model with_synthetic_weights(const Model& model, std::uint64_t seed, std::int64_t max_params) {
  Model out = model;
  std::int64_t total = 0;
  for (const auto& l : model.layers) {
    if (!l.has_weight_operand() || (!l.weight.empty() && model.weights.count(l.weight))) continue;
    std::int64_t rows = 0, cols = 0;
    weight_matrix_shape(l, rows, cols);
    total += rows * cols;
  }
  if (total > max_params)
    throw InputError("model '" + model.name + "': synthetic weights would need " + n2s(total) +
                     " values, more than the limit of " + n2s(max_params));
  for (std::size_t li = 0; li < out.layers.size(); ++li) {
    Layer& l = out.layers[li];
    if (!l.has_weight_operand() || (!l.weight.empty() && out.weights.count(l.weight))) continue;
    std::int64_t rows = 0, cols = 0;
    weight_matrix_shape(l, rows, cols);
    Tensor t;
    t.name = l.name + ".weight";
    if (l.kind == LayerKind::Linear)
      t.shape = {rows, cols};
    else
      t.shape = {l.out_features, l.in_features / l.groups, l.kernel_h, l.kernel_w};
    t.stored_dtype = "synthetic_normal";
    t.data.resize(std::size_t(rows * cols));
    const double sd = 1.0 / std::sqrt(double(cols));
    const std::uint64_t layer_key = splitmix64(seed ^ splitmix64(li + 1));
    for (std::size_t e = 0; e < t.data.size(); e += 2) {
      const std::uint64_t a = splitmix64(layer_key + 2 * e), b = splitmix64(layer_key + 2 * e + 1);
      const double rad = std::sqrt(-2.0 * std::log(unit(a))), ang = 6.283185307179586 * unit(b);
      t.data[e] = float(sd * rad * std::cos(ang));
      if (e + 1 < t.data.size()) t.data[e + 1] = float(sd * rad * std::sin(ang));
    }
    l.weight = t.name;
    out.weights[t.name] = std::move(t);
    out.real_weights = false;  // any synthetic tensor makes the model's weights not real
  }
  return out;
}

}  // namespace stcsim::workloads
