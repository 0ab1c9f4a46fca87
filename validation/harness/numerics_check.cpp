#include "validation/harness/numerics_check.h"

#include <cmath>
#include <cstring>

// STCSIM_NO_FUNCTIONAL_MODEL: the nvcc-only build without Boost (validation/standalone):
// no preset comparison (presets stays empty; the bit capture covers it offline).
#ifndef STCSIM_NO_FUNCTIONAL_MODEL
#include "models/functional/gemm_values.h"
#include "models/numerics/accumulation_model.h"
#include "models/numerics/exact_reference.h"
#else
namespace stcsim::numerics {
// exact_reference.h's ulp_distance for fp32 bit patterns (+0 and -0 are one point).
inline std::uint64_t ulp_distance(std::uint32_t x, std::uint32_t y) {
  auto ordered = [](std::uint32_t v) -> std::int64_t {
    return v & 0x80000000u ? -std::int64_t(v & 0x7FFFFFFFu) : std::int64_t(v);
  };
  const std::int64_t d = ordered(x) - ordered(y);
  return std::uint64_t(d < 0 ? -d : d);
}
}  // namespace stcsim::numerics
#endif
#include "models/numerics/float_format.h"

namespace stcsim::validation {

using numerics::FloatFormat;

std::vector<int> sample_indices(int n, int count) {
  std::vector<int> idx;
  if (n <= count) {
    for (int i = 0; i < n; ++i) idx.push_back(i);
    return idx;
  }
  for (int i = 0; i < count; ++i) idx.push_back(int((std::int64_t(i) * (n - 1)) / (count - 1)));
  return idx;
}

NumericsCheck check_numerics(const Fp16Matrix& x, const Fp16Matrix& w, int m, int n, int k,
                             int k_per_instruction, bool sparse_mma,
                             const std::vector<std::uint32_t>& gpu_y, int samples_per_dim) {
  NumericsCheck r;
  r.k_per_instruction = k_per_instruction;
  r.rows = sample_indices(m, samples_per_dim);
  r.cols = sample_indices(n, samples_per_dim);
  const std::vector<std::uint32_t> a = take_rows(x, k, r.rows), b = take_rows(w, k, r.cols);
  const int sm = int(r.rows.size()), sn = int(r.cols.size());
  auto gpu = [&](int i, int j) { return gpu_y[std::size_t(r.rows[i]) * n + r.cols[j]]; };

#ifndef STCSIM_NO_FUNCTIONAL_MODEL
  for (const std::string& name : numerics::accumulation_preset_names()) {
    functional::GemmValuesRequest req;
    req.m = sm;
    req.n = sn;
    req.k = k;
    req.k_per_instruction = k_per_instruction;
    req.format = FloatFormat::FP16;
    req.model = numerics::accumulation_preset(name, FloatFormat::FP16);
    if (sparse_mma) req.sparse_b = sparse::NmPattern{2, 4};  // the harness's 2:4 kernel
    const std::vector<std::uint32_t> want = functional::gemm_values(req, a, b);
    PresetAgreement p;
    p.preset = name;
    double sum = 0;
    for (int i = 0; i < sm; ++i)
      for (int j = 0; j < sn; ++j) {
        const std::uint64_t d = numerics::ulp_distance(gpu(i, j), want[std::size_t(i) * sn + j]);
        ++p.compared;
        p.exact += d == 0;
        p.max_ulp = std::max(p.max_ulp, d);
        sum += double(d);
      }
    p.mean_ulp = p.compared ? sum / p.compared : 0;
    r.presets.push_back(p);
  }
#endif

  double err2 = 0, ref2 = 0;
  for (int i = 0; i < sm; ++i)
    for (int j = 0; j < sn; ++j) {
      double ref = 0;
      for (int kk = 0; kk < k; ++kk)
        ref += numerics::decode(FloatFormat::FP16, a[std::size_t(i) * k + kk]) *
               numerics::decode(FloatFormat::FP16, b[std::size_t(j) * k + kk]);
      const double got = numerics::decode(FloatFormat::FP32, gpu(i, j));
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
      const std::uint32_t ref32 =
          numerics::encode(FloatFormat::FP32, ref, numerics::Rounding::NearestEven);
      r.cpu_max_ulp = std::max(r.cpu_max_ulp, numerics::ulp_distance(gpu(i, j), ref32));
    }
  r.cpu_rel_error = ref2 > 0 ? std::sqrt(err2 / ref2) : (err2 > 0 ? INFINITY : 0.0);
  return r;
}

double sampled_rel_error_f16(const Fp16Matrix& x, const Fp16Matrix& w, int m, int n, int k,
                             const Fp16Matrix& y, int samples_per_dim) {
  double err2 = 0, ref2 = 0;
  for (int i : sample_indices(m, samples_per_dim))
    for (int j : sample_indices(n, samples_per_dim)) {
      double ref = 0;
      for (int kk = 0; kk < k; ++kk)
        ref += numerics::decode(FloatFormat::FP16, x[std::size_t(i) * k + kk]) *
               numerics::decode(FloatFormat::FP16, w[std::size_t(j) * k + kk]);
      const double got = numerics::decode(FloatFormat::FP16, y[std::size_t(i) * n + j]);
      err2 += (got - ref) * (got - ref);
      ref2 += ref * ref;
    }
  return ref2 > 0 ? std::sqrt(err2 / ref2) : (err2 > 0 ? INFINITY : 0.0);
}

std::int64_t count_nan_f16(const Fp16Matrix& y) {
  std::int64_t n = 0;
  for (std::uint16_t v : y) n += numerics::is_nan(FloatFormat::FP16, v);
  return n;
}

std::int64_t count_nan_f32(const std::vector<std::uint32_t>& y) {
  std::int64_t n = 0;
  for (std::uint32_t v : y) n += numerics::is_nan(FloatFormat::FP32, v);
  return n;
}

std::int64_t count_f16_rounding_mismatches(const std::vector<std::uint32_t>& y32,
                                           const Fp16Matrix& y16) {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < y32.size() && i < y16.size(); ++i) {
    const double v = numerics::decode(FloatFormat::FP32, y32[i]);
    n += numerics::encode(FloatFormat::FP16, v, numerics::Rounding::NearestEven) != y16[i];
  }
  return n +
         std::int64_t(y32.size() > y16.size() ? y32.size() - y16.size() : y16.size() - y32.size());
}

}  // namespace stcsim::validation
