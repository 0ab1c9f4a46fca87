#include "sim/driver/functional_run.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "models/functional/gemm_values.h"
#include "models/numerics/exact_reference.h"
#include "models/numerics/float_format.h"
#include "models/sparse/prune.h"
#include "sim/core/atomic_write.h"
#include "sim/core/input_error.h"
#include "workloads/loaders/npy.h"

namespace stcsim {

namespace {

numerics::FloatFormat format_of(Dtype d) {
  switch (d) {
    case Dtype::BF16:
      return numerics::FloatFormat::BF16;
    case Dtype::TF32:
      return numerics::FloatFormat::TF32;
    case Dtype::FP8_E4M3:
      return numerics::FloatFormat::E4M3;
    case Dtype::FP8_E5M2:
      return numerics::FloatFormat::E5M2;
    default:
      return numerics::FloatFormat::FP16;
  }
}

// Values as the input format holds them (rounded), and their bit patterns.
struct Operand {
  std::vector<float> values;
  std::vector<std::uint32_t> bits;
};

// `given`: values to use (a trace's real weights) instead of seeded random ones.
Operand make_operand(std::int64_t rows, std::int64_t cols, Dtype d, std::mt19937_64& rng,
                     double scale, NmSparsity prune, const std::vector<float>* given = nullptr) {
  std::normal_distribution<double> normal(0.0, scale);
  std::uniform_int_distribution<int> ints(-127, 127);
  std::vector<float> v(std::size_t(rows * cols));
  if (given) {
    v = *given;  // pruned as the trace says, if it was
  } else {
    for (auto& x : v) x = d == Dtype::INT8 ? float(ints(rng)) : float(normal(rng));
    v[0] = d == Dtype::INT8 ? 3.0f : 0.75f;  // never all zero
  }
  // A trace's weights already N:M are kept as they are (pruning by magnitude leaves them
  // so); dense ones under a run's --sparsity are pruned as the timed op assumes: an mma.sp
  // multiplies N kept values of each group, never more (functional/sparse_dot.h).
  if (!prune.dense())
    v = sparse::prune_magnitude(v, int(rows), int(cols), sparse::NmPattern{prune.n, prune.m});
  Operand o;
  o.values.resize(v.size());
  o.bits.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (d == Dtype::INT8) {
      o.bits[i] = std::uint32_t(std::int32_t(v[i]));
      o.values[i] = v[i];
    } else {
      o.bits[i] = numerics::encode(format_of(d), v[i], numerics::Rounding::NearestEven);
      o.values[i] = float(numerics::decode(format_of(d), o.bits[i]));
    }
  }
  return o;
}

// Seeded weights of a synthetic block map (--block, --unstructured): zero every element
// outside the kept blocks, as the pruned weights would be.
void zero_outside_blocks(Operand& w, const BlockMap& map, std::int64_t rows, std::int64_t cols) {
  std::vector<std::uint8_t> keep;
  for (std::int64_t br = 0; br * map.r < rows; ++br) {
    keep.assign(std::size_t(map.block_cols), 0);
    for (int q = map.row_ptr[std::size_t(br)]; q < map.row_ptr[std::size_t(br) + 1]; ++q)
      keep[std::size_t(map.col_idx[std::size_t(q)])] = 1;
    for (std::int64_t i = br * map.r; i < std::min(rows, (br + 1) * map.r); ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        if (!keep[std::size_t(j / map.c)]) {
          w.values[std::size_t(i * cols + j)] = 0;
          w.bits[std::size_t(i * cols + j)] = 0;
        }
  }
}

void save(StagedFiles* staged, const std::string& path, std::int64_t rows, std::int64_t cols,
          std::vector<float> data) {
  workloads::Tensor t;
  t.shape = {rows, cols};
  t.data = std::move(data);
  if (!staged) return workloads::save_npy(path, t);
  const auto bytes = workloads::encode_npy(t);
  staged->write(path, bytes.data(), bytes.size());
}

}  // namespace

nlohmann::json run_functional(const OpResult& r, const FunctionalOptions& opt, int index) {
  const GemmOp& op = r.op;
  if (op.batch != 1)
    return {{"skipped", "batched (grouped) GEMMs are not computed in functional mode"}};
  if (double(op.m) * op.n * op.k > 2e10)
    throw InputError(op.name + ": --functional computes every product; " + std::to_string(op.m) +
                     "x" + std::to_string(op.n) + "x" + std::to_string(op.k) +
                     " is too large (at most 2e10 MACs)");
  if (!op.sparsity.dense() && op.k % op.sparsity.m != 0)
    throw InputError(op.name + ": K must be a multiple of " + std::to_string(op.sparsity.m) +
                     " to prune " + op.sparsity.str());
  std::mt19937_64 rng(opt.seed + 7919 * std::uint64_t(index));
  const Operand x = make_operand(op.m, op.k, op.dtype, rng, 1.0, {});
  // The weights are the trace's when it carries them; activations are always seeded. fp8
  // weights are drawn at unit scale: fp8 GEMMs take per-tensor scale factors (applied by the
  // epilogue, outside the tensor core) that put the operands in the format's range, where
  // 1/sqrt(K) would leave e4m3 weights of a large K mostly subnormal.
  const double w_scale = is_fp8(op.dtype) ? 1.0 : 1.0 / std::sqrt(double(op.k));
  Operand w = make_operand(op.n, op.k, op.dtype, rng, w_scale, op.sparsity,
                           op.weights ? op.weights.get() : nullptr);
  if (op.block_map && !op.weights)
    zero_outside_blocks(w, op.value_mask ? *op.value_mask : *op.block_map, op.n, op.k);

  functional::GemmValuesRequest req;
  req.m = op.m;
  req.n = op.n;
  req.k = op.k;
  req.k_per_instruction = op.kind().shape().k;
  const auto& map = r.mapping;
  const std::int64_t ktiles = (op.k + map.cta_k - 1) / map.cta_k;
  req.k_per_split = map.split_k > 1 ? (ktiles + map.split_k - 1) / map.split_k * map.cta_k : 0;
  req.integer = op.dtype == Dtype::INT8;
  req.format = format_of(op.dtype);
  req.model = numerics::accumulation_preset(opt.numerics, req.format);
  req.dot = r.dot_unit;  // the tensor core's own unit (impl rtl), else the golden model
  if (!r.accumulation.empty()) {
    // The kernel's arithmetic is not the tensor core's (e.g. the CSR kernel's fp32 FMA
    // chain on the CUDA cores): its own accumulation preset, no dot-product unit.
    req.model = numerics::accumulation_preset(r.accumulation, req.format);
    req.dot = {};
  }
  // mma.sp multiplies the weights' kept values only (mma_sp.h); a dot unit of its own (an
  // RTL tensor core) takes the dense chunk and does its own selection.
  if (!op.sparsity.dense() && r.accumulation.empty() && !req.dot && !req.integer)
    req.sparse_b = sparse::NmPattern{op.sparsity.n, op.sparsity.m};
  const auto d = functional::gemm_values(req, x.bits, w.bits);

  std::vector<float> dv(d.size());
  for (std::size_t i = 0; i < d.size(); ++i)
    dv[i] = req.integer ? float(std::int32_t(d[i]))
                        : float(numerics::decode(numerics::FloatFormat::FP32, d[i]));
  const std::string stem = opt.out_dir + "/op" + std::to_string(index);
  save(opt.staged, stem + "_x.npy", op.m, op.k, x.values);
  save(opt.staged, stem + "_w.npy", op.n, op.k, w.values);
  save(opt.staged, stem + "_y.npy", op.m, op.n, dv);

  nlohmann::json j;
  j["numerics"] = req.model.name;
  j["dot_unit"] = req.dot ? req.dot.name : "golden model (models/numerics mma_dot)";
  j["weights"] = op.weights ? "from the trace" : "seeded random";
  j["x_file"] = stem + "_x.npy";
  j["w_file"] = stem + "_w.npy";
  j["y_file"] = stem + "_y.npy";
  j["y_dtype"] = req.integer ? "int32 (as float32 .npy)" : "float32 accumulators";
  if (!req.integer) {
    // Error against the exact dot product rounded once to fp32, on a sample of outputs.
    const std::int64_t total = op.m * op.n, samples = std::min<std::int64_t>(total, 512);
    // Two measures: distance to the correctly rounded result (large where sums cancel),
    // and the error in units of the last place of sum |x w| (the scale accumulation
    // error bounds refer to, docs/numerics.md).
    double max_ulp = 0, sum_ulp = 0, max_scaled = 0, sum_scaled = 0;
    for (std::int64_t s = 0; s < samples; ++s) {
      const std::int64_t e = s * total / samples, i = e / op.n, jj = e % op.n;
      const std::uint32_t* xa = &x.bits[std::size_t(i * op.k)];
      const std::uint32_t* wb = &w.bits[std::size_t(jj * op.k)];
      const auto exact = numerics::exact_dot(req.format, xa, wb, int(op.k), 0);
      const double u =
          double(numerics::ulp_distance(numerics::round_to_fp32_nearest(exact), d[std::size_t(e)]));
      const double sc = numerics::error_in_ulps(
          exact, d[std::size_t(e)], numerics::exact_abs_dot(req.format, xa, wb, int(op.k), 0));
      max_ulp = std::max(max_ulp, u);
      sum_ulp += u;
      max_scaled = std::max(max_scaled, sc);
      sum_scaled += sc;
    }
    j["sampled_outputs"] = samples;
    j["max_ulp_vs_exact"] = max_ulp;
    j["mean_ulp_vs_exact"] = sum_ulp / double(samples);
    j["max_error_in_ulps_of_abs_sum"] = max_scaled;
    j["mean_error_in_ulps_of_abs_sum"] = sum_scaled / double(samples);
  }
  return j;
}

}  // namespace stcsim
