#include "workloads/lowering/lowering.h"

#include <limits>

#include "sim/core/input_error.h"

namespace stcsim::workloads {

namespace {

std::string n2s(std::int64_t v) { return std::to_string(v); }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// M, N, K and batch must fit the simulator's ints and its 2^24 dimension limit.
void check_dims(const LoweredGemm& g, const std::string& where) {
  constexpr std::int64_t kMax = std::int64_t(1) << 24;
  for (auto [v, what] : {std::pair{g.m, "M"}, {g.n, "N"}, {g.k, "K"}})
    if (v < 1 || v > kMax)
      throw InputError(where + ": lowered GEMM has " + what + " = " + n2s(v) +
                       " (must be between 1 and " + n2s(kMax) + ")");
}

}  // namespace

std::int64_t conv_out_size(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                           std::int64_t padding, std::int64_t dilation, const std::string& where) {
  if (in < 1 || kernel < 1 || stride < 1 || padding < 0 || dilation < 1)
    throw InputError(where +
                     ": convolution needs input >= 1, kernel >= 1, stride >= 1, "
                     "padding >= 0, dilation >= 1 (got input " +
                     n2s(in) + ", kernel " + n2s(kernel) + ", stride " + n2s(stride) +
                     ", padding " + n2s(padding) + ", dilation " + n2s(dilation) + ")");
  const std::int64_t span = dilation * (kernel - 1) + 1;
  if (in + 2 * padding < span)
    throw InputError(where + ": kernel span " + n2s(span) + " (kernel " + n2s(kernel) +
                     ", dilation " + n2s(dilation) + ") exceeds the padded input " +
                     n2s(in + 2 * padding));
  return (in + 2 * padding - span) / stride + 1;
}

LoweredGemm lower_layer(const Layer& l, const LoweringOptions& opt, std::int64_t sh_num,
                        std::int64_t sh_den, std::int64_t sw_num, std::int64_t sw_den) {
  const std::string where = "layer '" + l.name + "'";
  if (opt.batch < 1) throw InputError("lowering: batch must be >= 1, got " + n2s(opt.batch));
  if (l.in_features < 1 || l.out_features < 1)
    throw InputError(where + ": in and out features must be >= 1 (got " + n2s(l.in_features) +
                     " -> " + n2s(l.out_features) + ")");
  LoweredGemm g;
  g.name = l.name;
  g.layer = l.name;
  g.weight = l.weight;
  g.b_role = kRoleWeight;
  std::int64_t tokens = opt.seq_len;
  if (l.in_h > 0 && l.in_w > 0) tokens = l.in_h * l.in_w;
  if (tokens < 1) throw InputError("lowering: seq_len must be >= 1, got " + n2s(tokens));
  if (l.kind == LayerKind::RowOp) {
    if (l.row_op.empty())
      throw InputError(where + ": a row op needs its op's name (softmax, layernorm, ...)");
    g.row_op = l.row_op;
    g.a_role = kRoleActivations;
    g.b_role = "";
    g.k = 1;
    if (l.heads > 0) {  // attention's probabilities: per sample and head, causal or not
      if (opt.batch * l.heads > std::numeric_limits<int>::max())
        throw InputError(where + ": too many rows of heads (" + n2s(l.heads) + ")");
      g.m = tokens;
      g.n = tokens;
      g.batch = int(opt.batch * l.heads);
      if (l.causal) g.causal = "output";
    } else {
      g.m = opt.batch * tokens;
      g.n = l.in_features;
      g.batch = 1;
    }
  } else if (!l.has_weight_operand()) {
    if (l.heads < 1 || opt.batch * l.heads > std::numeric_limits<int>::max())
      throw InputError(where + ": attention needs 1 to " +
                       n2s(std::numeric_limits<int>::max() / opt.batch) + " heads, got " +
                       n2s(l.heads));
    const bool scores = l.kind == LayerKind::AttentionScores;
    g.a_role = scores ? kRoleQueries : kRoleProbs;
    g.b_role = scores ? kRoleKeys : kRoleValuesT;
    g.m = tokens;
    g.n = scores ? tokens : l.out_features;
    g.k = scores ? l.in_features : tokens;
    g.batch = int(opt.batch * l.heads);
    if (l.causal) g.causal = scores ? "output" : "a";
  } else if (l.kind == LayerKind::Linear) {
    g.a_role = kRoleActivations;
    g.m = opt.batch * tokens;
    g.n = l.out_features;
    g.k = l.in_features;
    g.batch = 1;
  } else {
    if (l.groups < 1 || l.in_features % l.groups || l.out_features % l.groups)
      throw InputError(where + ": groups = " + n2s(l.groups) +
                       " must divide both channel counts (in " + n2s(l.in_features) + ", out " +
                       n2s(l.out_features) + ")");
    if (l.in_h < 1 || l.in_w < 1)
      throw InputError(where + ": Conv2d needs its input size in_h x in_w (got " + n2s(l.in_h) +
                       " x " + n2s(l.in_w) + ")");
    const std::int64_t h = ceil_div(l.in_h * sh_num, sh_den);
    const std::int64_t w = ceil_div(l.in_w * sw_num, sw_den);
    const std::int64_t p = conv_out_size(h, l.kernel_h, l.stride, l.padding, l.dilation, where);
    const std::int64_t q = conv_out_size(w, l.kernel_w, l.stride, l.padding, l.dilation, where);
    if (l.groups > std::numeric_limits<int>::max())
      throw InputError(where + ": too many groups (" + n2s(l.groups) + ")");
    g.a_role = kRoleIm2col;
    g.m = opt.batch * p * q;
    g.n = l.out_features / l.groups;
    g.k = l.in_features / l.groups * l.kernel_h * l.kernel_w;
    g.batch = int(l.groups);
    g.conv =
        ConvShape{opt.batch, h, w, l.kernel_h, l.kernel_w, l.stride, l.padding, l.dilation, p, q};
  }
  check_dims(g, where);
  return g;
}

std::vector<LoweredGemm> lower_model(const Model& model, const LoweringOptions& opt) {
  if (opt.batch < 1) throw InputError("lowering: batch must be >= 1, got " + n2s(opt.batch));
  if (opt.seq_len < 1) throw InputError("lowering: seq_len must be >= 1, got " + n2s(opt.seq_len));
  if (opt.image_h < 0 || opt.image_w < 0 || (opt.image_h == 0) != (opt.image_w == 0))
    throw InputError("lowering: give both image height and width (positive), got " +
                     n2s(opt.image_h) + " x " + n2s(opt.image_w));
  std::int64_t def_h = 0, def_w = 0;
  for (const auto& l : model.layers)
    if (l.kind == LayerKind::Conv2d) {
      def_h = l.in_h;
      def_w = l.in_w;
      break;
    }
  std::int64_t sh_num = 1, sh_den = 1, sw_num = 1, sw_den = 1;
  if (opt.image_h > 0) {
    if (def_h < 1 || def_w < 1)
      throw InputError("lowering: model '" + model.name +
                       "' has no convolution input size, so an image size cannot apply");
    sh_num = opt.image_h;
    sh_den = def_h;
    sw_num = opt.image_w;
    sw_den = def_w;
  }
  std::vector<LoweredGemm> out;
  out.reserve(model.layers.size());
  for (const auto& l : model.layers)
    out.push_back(lower_layer(l, opt, sh_num, sh_den, sw_num, sw_den));
  return out;
}

}  // namespace stcsim::workloads
