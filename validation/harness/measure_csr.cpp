// The CSR SpMM measured like our tensor-core kernels: run twice on a NaN-poisoned output
// (fp32 out: checked bit for bit against the host's replay of the kernel's fmaf chain on
// sampled rows and columns, and against a double reference; fp16 out: the fp32 result
// rounded to nearest), then timed with fp16 output.
#include <cmath>
#include <cstring>
#include <iostream>

#include "models/numerics/float_format.h"
#include "validation/cuda/csr_spmm.h"
#include "validation/harness/csr_operand.h"
#include "validation/harness/measure_common.h"
#include "validation/harness/numerics_check.h"

namespace stcsim::validation {

using nlohmann::json;

namespace {
double fp16_value(std::uint16_t h) { return numerics::decode(numerics::FloatFormat::FP16, h); }
}  // namespace

MeasureResult measure_csr(const GemmSpec& g, double sparsity, const MeasureSettings& s,
                          MeasureContext& ctx) {
  MeasureResult r;
  const Fp16Matrix x = random_fp16(g.m, g.k, s.seed), w = random_fp16(g.n, g.k, s.seed + 1);
  const Fp16Matrix xt = transpose(x, g.m, g.k);
  const CsrOperand op = prune_to_csr(w, g.n, g.k, sparsity);
  DeviceBuffer dvals(op.values), dcols(op.col_idx), dptr(op.row_ptr), dorder(op.row_order), dxt(xt);
  const std::size_t mn = std::size_t(g.m) * g.n;
  DeviceBuffer dy(mn * 4);
  CsrSpmmLaunch launch{g.n, g.m, g.k, csr_tile_cols_for(g.m), true};
  const CsrSpmmBuffers buf{dvals.p,
                           static_cast<const int*>(dcols.p),
                           static_cast<const int*>(dptr.p),
                           static_cast<const int*>(dorder.p),
                           dxt.p,
                           dy.p};
  auto run = [&](bool f32, cudaStream_t st) {
    CsrSpmmLaunch l = launch;
    l.out_f32 = f32;
    CUDA_CHECK(launch_csr_spmm(l, buf, st));
  };
  CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 4));
  run(true, ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const std::vector<std::uint32_t> y32 = download<std::uint32_t>(dy.p, mn);  // Y^T [N, M]
  CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 2));
  run(false, ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const Fp16Matrix y16 = download<std::uint16_t>(dy.p, mn);

  // Sampled elements: exact against the fmaf chain, relative error against double.
  const std::vector<int> rows = sample_indices(g.n, s.samples),
                         cols = sample_indices(g.m, s.samples);
  int compared = 0, exact = 0;
  double err2 = 0, ref2 = 0;
  for (int row : rows)
    for (int col : cols) {
      const std::uint32_t want = csr_reference_element(op, xt, g.m, row, col);
      const std::uint32_t got = y32[std::size_t(row) * g.m + col];
      ++compared;
      exact += want == got;
      double ref = 0;
      for (int i = op.row_ptr[row]; i < op.row_ptr[row + 1]; ++i)
        ref += fp16_value(op.values[i]) * fp16_value(xt[std::size_t(op.col_idx[i]) * g.m + col]);
      float gf;
      std::memcpy(&gf, &got, 4);
      err2 += (double(gf) - ref) * (double(gf) - ref);
      ref2 += ref * ref;
    }
  const double rel = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  const std::int64_t nan = count_nan_f32(y32), f16_bad = count_f16_rounding_mismatches(y32, y16);
  const bool ok = nan == 0 && f16_bad == 0 && exact == compared && rel < 1e-3;
  r.check_failed = !ok;

  int regs = 0, ctas = 0;
  CUDA_CHECK(csr_spmm_resources(launch, &regs, &ctas));
  int min_row = g.k, max_row = 0;
  for (int i = 0; i < op.rows; ++i) {
    min_row = std::min(min_row, op.row_ptr[i + 1] - op.row_ptr[i]);
    max_row = std::max(max_row, op.row_ptr[i + 1] - op.row_ptr[i]);
  }
  json e = entry_head(g, "unstructured", "stcsim_csr");
  e["kernel_problem"] = {{"rows", g.n},
                         {"tokens", g.m},
                         {"k", g.k},
                         {"a_operand", "W (CSR)"},
                         {"transpose_out", true}};
  e["padding"] = nullptr;
  e["mapping"] = nullptr;
  e["csr"] = {{"sparsity", sparsity},
              {"nonzeros", op.nnz()},
              {"row_nonzeros_min", min_row},
              {"row_nonzeros_max", max_row},
              {"tile_cols", launch.tile_cols},
              {"warps_per_cta", kCsrWarps},
              {"stage_nonzeros", kCsrStageNnz},
              {"row_order", "longest first (Sputnik row swizzle)"},
              {"gather_loop", "dependent"},  // one gather in flight a warp (csr_spmm.cu)
              {"pruning", "uniform rows: each keeps its largest-magnitude values"}};
  e["resources"] = {{"registers", regs},
                    {"smem_bytes", kCsrWarps * kCsrStageNnz * 8},
                    {"threads", kCsrWarps * 32},
                    {"ctas_per_sm", ctas}};
  e["check"] = {{"passed", ok},
                {"nan_or_unwritten", nan},
                {"f16_rounding_mismatches", f16_bad},
                {"cpu_rel_error", rel},
                {"fmaf_chain", {{"compared", compared}, {"exact", exact}}}};
  e.update(timed([&](cudaStream_t st) { run(false, st); }, s, ctx));
  std::cerr << "  " << g.name << " stcsim_csr " << sparsity << " cols " << launch.tile_cols << ": "
            << e["time_us"]["median"].get<double>() << " us" << (ok ? "" : "  CHECK FAILED")
            << "\n";
  r.entry = e;
  return r;
}

}  // namespace stcsim::validation
