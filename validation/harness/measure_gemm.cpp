#include "validation/harness/measure_gemm.h"

#include <cstring>
#include <iostream>

#include "sim/core/input_error.h"
#include "validation/cuda/kernels.h"
#include "validation/harness/baselines.h"
#include "validation/harness/cuda_check.h"
#include "validation/harness/measure_common.h"
#include "validation/harness/numerics_check.h"
#include "validation/harness/operands.h"
#include "validation/harness/sparse_pack.h"

namespace stcsim::validation {

namespace {

using nlohmann::json;

// Padding: a dimension rounded up to a multiple of `tile`.
int round_up(int v, int tile) { return (v + tile - 1) / tile * tile; }

// A tile for the kernel problem mk x nk x k. Tiles that divide it exactly come first:
// the largest giving at least one CTA per SM, else the one with the most CTAs. When none
// divides it, the tile that needs the least zero padding (ties: more CTAs). Only tiles
// that fit the device's shared memory; for the BSR kernel, only tiles with 32x32 blocks
// (cta_m x cta_k).
bool choose_tile(GemmKernel kind, int mk, int nk, int k, const MeasureSettings& s,
                 const DeviceInfo& dev, KernelTile& out, std::string& why) {
  std::vector<KernelTile> cands =
      s.tile == "auto" ? compiled_tiles(kind) : std::vector<KernelTile>{parse_tile(s.tile)};
  long best_ctas = -1;
  double best_pad = 0;
  bool exact_found = false;
  for (const KernelTile& t : cands) {
    if (kernel_smem_bytes(kind, t.cta_m, t.cta_n, t.cta_k, t.stages, 4) > dev.smem_per_block_optin)
      continue;
    // The BSR kernel's blocks are its cta_m x cta_k: 32x32, the size the campaign times
    // (and the simulator's block maps can run: they go up to 64x64).
    if (kind == GemmKernel::Bsr && s.tile == "auto" && (t.cta_m != 32 || t.cta_k != 32)) continue;
    const GemmLaunch g{kind, t, mk, nk, k};
    const bool exact = !*tile_mismatch(g);
    const int pm = round_up(mk, t.cta_m), pn = round_up(nk, t.cta_n), pk = round_up(k, t.cta_k);
    const long ctas = long(pm / t.cta_m) * (pn / t.cta_n);
    const double pad = double(pm) * pn * pk / (double(mk) * nk * k);
    if (exact) {
      if (!exact_found) best_ctas = -1;
      exact_found = true;
      if (ctas >= dev.sm_count) return out = t, true;
      if (ctas > best_ctas) best_ctas = ctas, out = t;
    } else if (!exact_found) {
      if (best_ctas < 0 || pad < best_pad || (pad == best_pad && ctas > best_ctas))
        best_ctas = ctas, best_pad = pad, out = t;
    }
  }
  if (best_ctas < 0)
    why = "no compiled tile (" + s.tile + ") fits shared memory for the kernel problem " +
          std::to_string(mk) + "x" + std::to_string(nk) + "x" + std::to_string(k);
  return best_ctas >= 0;
}

// rows x cols -> prows x pcols, zeros appended.
Fp16Matrix pad_matrix(const Fp16Matrix& a, int rows, int cols, int prows, int pcols) {
  if (rows == prows && cols == pcols) return a;
  Fp16Matrix p(std::size_t(prows) * pcols, 0);
  for (int r = 0; r < rows; ++r)
    std::copy(a.begin() + std::size_t(r) * cols, a.begin() + std::size_t(r + 1) * cols,
              p.begin() + std::size_t(r) * pcols);
  return p;
}

// bsr_density: the fraction of blocks the BSR kernel keeps (ignored by the others).
MeasureResult measure_ours(const GemmSpec& g, GemmKernel kind, double bsr_density,
                           const MeasureSettings& s, MeasureContext& ctx) {
  MeasureResult r;
  const bool on_w = kind != GemmKernel::Dense;
  GemmLaunch launch{kind, {}, on_w ? g.n : g.m, on_w ? g.m : g.n, g.k};
  std::string why;
  if (!choose_tile(kind, launch.m, launch.n, launch.k, s, ctx.device, launch.tile, why)) {
    r.skipped = {{"name", g.name}, {"kernel", kernel_name(kind)}, {"why", why}};
    return r;
  }
  const KernelTile& t = launch.tile;
  // The padded problem: our kernels run it, and every check covers it.
  const int mk0 = launch.m, nk0 = launch.n;
  launch.m = round_up(launch.m, t.cta_m);
  launch.n = round_up(launch.n, t.cta_n);
  launch.k = round_up(launch.k, t.cta_k);
  const int pm = on_w ? launch.n : launch.m, pn = on_w ? launch.m : launch.n, pk = launch.k;
  const bool padded = launch.m != mk0 || launch.n != nk0 || launch.k != g.k;
  const Fp16Matrix x = pad_matrix(random_fp16(g.m, g.k, s.seed), g.m, g.k, pm, pk),
                   w = pad_matrix(random_fp16(g.n, g.k, s.seed + 1), g.n, g.k, pn, pk);
  const std::size_t mn = std::size_t(pm) * pn;
  DeviceBuffer dx(x), dy(mn * 4);
  const int tiles_n = launch.n / t.cta_n;
  launch.swizzle = s.swizzle > 0 ? s.swizzle : std::min(8, tiles_n);
  launch.transpose_out = on_w;
  GemmBuffers buf;
  buf.d = dy.p;
  Fp16Matrix w_eff = w;  // the weights as this kernel multiplies them
  std::unique_ptr<DeviceBuffer> dw, a_vals, a_meta, row_ptr, col_idx;
  json extra;
  if (kind == GemmKernel::Dense) {
    dw = std::make_unique<DeviceBuffer>(w);
    buf.a = dx.p;
    buf.b = dw->p;
  } else if (kind == GemmKernel::Sparse24) {
    w_eff = prune_24(w, pn, pk);
    const Sp24Operand op = pack_sp24(w_eff, pn, pk, t.cta_m, t.cta_k);
    a_vals = std::make_unique<DeviceBuffer>(op.values);
    a_meta = std::make_unique<DeviceBuffer>(op.meta);
    buf.a = a_vals->p;
    buf.a_meta = a_meta->p;
    buf.b = dx.p;
  } else {
    w_eff = prune_blocks(w, pn, pk, t.cta_m, t.cta_k, bsr_density);
    const BsrOperand op = pack_bsr(w_eff, pn, pk, t.cta_m, t.cta_k);
    a_vals = std::make_unique<DeviceBuffer>(op.values);
    row_ptr = std::make_unique<DeviceBuffer>(op.row_ptr);
    col_idx = std::make_unique<DeviceBuffer>(op.col_idx);
    buf.a = a_vals->p;
    buf.bsr_row_ptr = static_cast<const int*>(row_ptr->p);
    buf.bsr_col_idx = static_cast<const int*>(col_idx->p);
    buf.b = dx.p;
    extra = {{"block_rows", t.cta_m},         {"block_cols", t.cta_k},
             {"density", bsr_density},        {"sparsity", 1 - bsr_density},
             {"kept_blocks", op.kept_blocks}, {"total_blocks", op.total_blocks}};
  }
  auto run = [&](bool f32, cudaStream_t st) {
    GemmLaunch l = launch;
    l.out_f32 = f32;
    CUDA_CHECK(launch_gemm(l, buf, st));
  };
  // Correctness: fp32 output (the accumulator bits) and fp16 output, each on a poisoned buffer.
  CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 4));
  run(true, ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const std::vector<std::uint32_t> y32 = download<std::uint32_t>(dy.p, mn);
  CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 2));
  run(false, ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const Fp16Matrix y16 = download<std::uint16_t>(dy.p, mn);
  const int kpi = kind == GemmKernel::Sparse24 ? 32 : 16;
  const NumericsCheck nc =
      check_numerics(x, w_eff, pm, pn, pk, kpi, kind == GemmKernel::Sparse24, y32, s.samples);
  const std::int64_t nan = count_nan_f32(y32), f16_bad = count_f16_rounding_mismatches(y32, y16);
  const bool ok = nan == 0 && f16_bad == 0 && nc.cpu_rel_error < 1e-3;
  r.check_failed = !ok;
  json presets = json::object();
  for (const auto& p : nc.presets)
    presets[p.preset] = {{"compared", p.compared},
                         {"exact", p.exact},
                         {"max_ulp", p.max_ulp},
                         {"mean_ulp", p.mean_ulp}};
  KernelResources res;
  CUDA_CHECK(kernel_resources(launch, &res));
  json e = entry_head(g,
                      kind == GemmKernel::Dense      ? "dense"
                      : kind == GemmKernel::Sparse24 ? "2:4"
                                                     : "bsr",
                      kernel_name(kind));
  e["kernel_problem"] = {{"m", launch.m},
                         {"n", launch.n},
                         {"k", launch.k},
                         {"a_operand", on_w ? "W" : "x"},
                         {"transpose_out", launch.transpose_out}};
  e["padding"] = padded ? json{{"how",
                                "zero rows/columns appended up to the tile; the kernel "
                                "runs, and the checks cover, the padded problem"},
                               {"m", pm},
                               {"n", pn},
                               {"k", pk}}
                        : json(nullptr);
  e["mapping"] = {{"cta_m", t.cta_m},          {"cta_n", t.cta_n},   {"cta_k", t.cta_k},
                  {"warp_m", t.warp_m},        {"warp_n", t.warp_n}, {"stages", t.stages},
                  {"swizzle", launch.swizzle}, {"split_k", 1},       {"smem_layout", "swizzled"}};
  e["resources"] = {{"registers", res.registers},
                    {"smem_bytes", res.smem_bytes},
                    {"threads", res.threads},
                    {"ctas_per_sm", res.ctas_per_sm}};
  if (!extra.is_null()) e["bsr"] = extra;
  e["check"] = {{"passed", ok},
                {"nan_or_unwritten", nan},
                {"f16_rounding_mismatches", f16_bad},
                {"cpu_rel_error", nc.cpu_rel_error},
                {"cpu_max_ulp", nc.cpu_max_ulp},
                {"numerics",
                 {{"instruction_k", kpi},
                  {"rows_sampled", nc.rows.size()},
                  {"cols_sampled", nc.cols.size()},
                  {"presets", presets}}}};
  e.update(timed([&](cudaStream_t st) { run(false, st); }, s, ctx));
  std::cerr << "  " << g.name << " " << kernel_name(kind) << " " << t.str() << ": "
            << e["time_us"]["median"].get<double>() << " us" << (ok ? "" : "  CHECK FAILED")
            << "\n";
  r.entry = e;
  return r;
}

// Vendor libraries: fp16 output, checked against the CPU reference on a sample.
MeasureResult measure_vendor(const GemmSpec& g, const std::string& lib, const MeasureSettings& s,
                             MeasureContext& ctx) {
  MeasureResult r;
  const bool sparse = lib == "cusparselt";
  const Fp16Matrix x = random_fp16(g.m, g.k, s.seed), w = random_fp16(g.n, g.k, s.seed + 1);
  const Fp16Matrix w24 = sparse ? prune_24(w, g.n, g.k) : Fp16Matrix{};
  const std::size_t mn = std::size_t(g.m) * g.n;
  DeviceBuffer dx(x), dw(sparse ? w24 : w), dy(mn * 2);
  std::string why;
  std::unique_ptr<VendorGemm> v =
      lib == "cublas"     ? make_cublas(dx.p, dw.p, dy.p, g.m, g.n, g.k, why)
      : lib == "cublaslt" ? make_cublaslt(dx.p, dw.p, dy.p, g.m, g.n, g.k, why)
                          : make_cusparselt(dx.p, dw.p, dy.p, g.m, g.n, g.k, ctx.stream, why);
  r.baseline = v ? "ok" : why;
  if (!v) {
    r.skipped = {{"name", g.name}, {"kernel", lib}, {"why", why}};
    // An error inside the library's setup may have left a CUDA error behind.
    r.cuda_error = why.rfind("error:", 0) == 0;
    return r;
  }
  CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 2));
  v->launch(ctx.stream);
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  const Fp16Matrix y16 = download<std::uint16_t>(dy.p, mn);
  const std::int64_t nan = count_nan_f16(y16);
  const double rel = sampled_rel_error_f16(x, sparse ? w24 : w, g.m, g.n, g.k, y16, s.samples);
  const bool ok = nan == 0 && rel < 5e-3;
  r.check_failed = !ok;
  json e = entry_head(g, sparse ? "2:4" : "dense", lib);
  e["mapping"] = nullptr;
  e["library"] = {{"path", library_path(lib)}, {"note", v->note()}};
  e["check"] = {{"passed", ok}, {"nan_or_unwritten", nan}, {"cpu_rel_error", rel}};
  e.update(timed([&](cudaStream_t st) { v->launch(st); }, s, ctx));
  std::cerr << "  " << g.name << " " << lib << ": " << e["time_us"]["median"].get<double>() << " us"
            << (ok ? "" : "  CHECK FAILED") << "\n";
  r.entry = e;
  return r;
}

}  // namespace

MeasureResult measure_gemm(const GemmSpec& g, const std::string& kernel, const MeasureSettings& s,
                           MeasureContext& ctx) {
  try {
    if (kernel == "dense") return measure_ours(g, GemmKernel::Dense, 1, s, ctx);
    if (kernel == "sp24") return measure_ours(g, GemmKernel::Sparse24, 1, s, ctx);
    if (kernel.rfind("bsr", 0) == 0)
      return measure_ours(g, GemmKernel::Bsr, 1 - family_sparsity(kernel), s, ctx);
    if (kernel.rfind("csr", 0) == 0) return measure_csr(g, family_sparsity(kernel), s, ctx);
    return measure_vendor(g, kernel, s, ctx);
  } catch (const std::runtime_error& e) {  // CUDA_CHECK, a library status, an input error
    MeasureResult r;
    r.skipped = {{"name", g.name}, {"kernel", kernel}, {"why", std::string("error: ") + e.what()}};
    if (kernel == "cublas" || kernel == "cublaslt" || kernel == "cusparselt")
      r.baseline = std::string("error: ") + e.what();
    r.cuda_error = true;
    return r;
  }
}

}  // namespace stcsim::validation
