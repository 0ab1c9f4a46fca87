// Lowering of layers to the GEMMs a GPU runs, D[M,N] = A[M,K] * B[N,K]^T, with the
// weight as B (README "What it answers").
//
// Linear y = x W^T, W [out, in]:     M = batch x tokens per sample, N = out, K = in.
// Conv2d as an implicit GEMM (im2col of the input is A, the OIHW weight reshaped to
// [O, I/groups * R * S] is B):      M = batch x P x Q, N = Cout / groups,
//                                    K = Cin / groups x R x S, batch = groups.
// P = floor((H + 2 pad - dil (R - 1) - 1) / stride) + 1, Q likewise with W and S.
// A grouped convolution is `groups` independent GEMMs of that shape (LoweredGemm::batch);
// depthwise is groups = Cin with N = Cout / Cin (the channel multiplier) and K = R x S.
//
// Attention, per sample and head (batch = samples x heads GEMMs of one shape):
//   scores  S = Q K^T:  M = tokens, N = tokens, K = head size; causal: "output"
//   context O = P V:    M = tokens, N = head size, K = tokens; causal: "a"
//
// Row ops (not GEMMs: softmax, norms, activations, adds, embeddings), k = 1:
//   attention's softmax (heads > 0): M = tokens, N = tokens, batch = samples x heads
//   any other:                        M = batch x tokens, N = features, batch = 1
//
// Tokens per sample of a Linear, attention or row-op layer (the shared Layer has no field for it):
//   in_h > 0 and in_w > 0: in_h x in_w, fixed (e.g. 1 x 1 for a classifier on a pooled
//     feature or on ViT's class token, a feature map's H x W for a per-position layer);
//   otherwise: LoweringOptions::seq_len (a transformer's sequence layers).
//
// Image size. Conv2d::in_h/in_w are the spatial sizes at the model's default input, which
// is taken to be the first Conv2d layer's in_h x in_w. An override image_h x image_w
// rescales every conv input to ceil(in_h * image_h / default_h) (likewise w): exact for
// networks whose downsampling gives ceil(in / stride) (ResNet's 7x7/2 pad 3, 3x3/2 pad 1,
// 1x1/2 pad 0 and 3x3/2 pad 1 max-pool all do). Linear layers are not rescaled.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/conv_shape.h"
#include "workloads/layer.h"

namespace stcsim::workloads {

// Operand roles: A is the activation operand, B the weight operand.
inline constexpr const char* kRoleActivations = "activations";     // Linear: x [tokens, in]
inline constexpr const char* kRoleIm2col = "im2col(activations)";  // Conv2d: implicit im2col
inline constexpr const char* kRoleWeight = "weight";               // [N = out, K = in]
// Attention (no weight operand): scores S = Q K^T, context O = P V, per head.
inline constexpr const char* kRoleQueries = "queries (Q)";      // [tokens, head size]
inline constexpr const char* kRoleKeys = "keys (K)";            // [tokens, head size]
inline constexpr const char* kRoleProbs = "probabilities (P)";  // [tokens, tokens]
inline constexpr const char* kRoleValuesT = "values (V^T)";     // [head size, tokens]

struct LoweredGemm {
  std::string name;   // the layer's name (one GEMM per layer)
  std::string layer;  // the layer it comes from
  std::int64_t m = 0, n = 0, k = 0;
  int batch = 1;       // independent GEMMs of this shape (conv groups; 1 otherwise)
  std::string a_role;  // kRoleActivations, kRoleIm2col; attention: kRoleQueries, kRoleProbs
  std::string b_role;  // kRoleWeight; attention: kRoleKeys, kRoleValuesT
  std::string weight;  // the weight tensor (Model::weights key), "" for shape-only models
  ConvShape conv;      // Conv2d: the convolution's geometry (absent for Linear)
  // A causal attention GEMM: "output" (scores) or "a" (context); "" otherwise
  // (models/common/gemm_op.h Causal).
  std::string causal;
  // A non-GEMM op ("softmax", "layernorm", ...; models/common/row_op.h): m rows of n
  // elements, k = 1. "" for a GEMM.
  std::string row_op;
  // The weight as one row-major matrix [batch * n, k]: the OIHW tensor read as
  // [O, I/groups * R * S]; group g owns rows [g n, (g+1) n).
  std::int64_t weight_rows() const { return std::int64_t(batch) * n; }

  double flops() const { return 2.0 * double(m) * double(n) * double(k) * batch; }
  // Weight values (0 for attention, whose operands are both activations).
  std::int64_t weight_params() const { return b_role == kRoleWeight ? weight_rows() * k : 0; }
};

struct LoweringOptions {
  std::int64_t batch = 1;                 // samples (images, sequences)
  std::int64_t seq_len = 1;               // tokens per sample of sequence Linear layers (see above)
  std::int64_t image_h = 0, image_w = 0;  // 0: the model's default input size
};

// Conv output size along one axis; InputError when the kernel does not fit.
std::int64_t conv_out_size(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                           std::int64_t padding, std::int64_t dilation, const std::string& where);

// One layer; `scale_*` (numerator/denominator) rescale Conv2d inputs, 1/1 = unchanged.
// Throws InputError naming the layer for impossible shapes (zero sizes, channels not
// divisible by groups, a kernel larger than the padded input).
LoweredGemm lower_layer(const Layer& layer, const LoweringOptions& opt,
                        std::int64_t scale_h_num = 1, std::int64_t scale_h_den = 1,
                        std::int64_t scale_w_num = 1, std::int64_t scale_w_den = 1);

// Every layer, in the model's execution order. InputError for bad options (batch,
// seq_len < 1, an image override on a model without convolutions, only one of h / w).
std::vector<LoweredGemm> lower_model(const Model& model, const LoweringOptions& opt);

}  // namespace stcsim::workloads
