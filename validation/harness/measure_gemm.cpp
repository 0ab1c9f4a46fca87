#include "validation/harness/measure_gemm.h"

#include <cstring>
#include <iostream>

#include "sim/core/input_error.h"
#include "validation/cuda/kernels.h"
#include "validation/harness/baselines.h"
#include "validation/harness/cuda_check.h"
#include "validation/harness/numerics_check.h"
#include "validation/harness/operands.h"
#include "validation/harness/sparse_pack.h"

namespace stcsim::validation {

namespace {

using nlohmann::json;

// A device allocation, freed with its owner.
struct DeviceBuffer {
  void* p = nullptr;
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 16)); }
  template <typename T>
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size() * sizeof(T)) {
    CUDA_CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

template <typename T>
std::vector<T> download(const void* p, std::size_t count) {
  std::vector<T> h(count);
  CUDA_CHECK(cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// The largest compiled tile that gives at least one CTA per SM, else the one with the most
// CTAs; only tiles that divide the problem and fit the device's shared memory.
bool choose_tile(GemmKernel kind, int mk, int nk, int k, const MeasureSettings& s,
                 const DeviceInfo& dev, KernelTile& out, std::string& why) {
  std::vector<KernelTile> cands =
      s.tile == "auto" ? compiled_tiles() : std::vector<KernelTile>{parse_tile(s.tile)};
  long best_ctas = -1;
  for (const KernelTile& t : cands) {
    GemmLaunch g{kind, t, mk, nk, k};
    if (*tile_mismatch(g) ||
        kernel_smem_bytes(kind, t.cta_m, t.cta_n, t.cta_k, t.stages, 4) > dev.smem_per_block_optin)
      continue;
    const long ctas = long(mk / t.cta_m) * (nk / t.cta_n);
    if (ctas >= dev.sm_count) return out = t, true;
    if (ctas > best_ctas) best_ctas = ctas, out = t;
  }
  if (best_ctas < 0)
    why = "no compiled tile (" + s.tile + ") divides the kernel problem " + std::to_string(mk) +
          "x" + std::to_string(nk) + "x" + std::to_string(k) + " and fits shared memory";
  return best_ctas >= 0;
}

json timed(const std::function<void(cudaStream_t)>& launch, const MeasureSettings& s,
           MeasureContext& ctx) {
  ClockSampler clock(ctx.nvml);
  clock.start();
  const TimingStats t = time_launches(launch, ctx.stream, s.warmup, s.runs, ctx.flush);
  const json c = clock_summary(clock.stop());
  json j{{"time_us", to_json(t)}, {"sm_clock_mhz", c}};
  if (!c.is_null()) j["sm_clock_mhz_median"] = c["median"];
  return j;
}

json entry_head(const GemmSpec& g, const char* sparsity, const std::string& kernel) {
  return {{"name", g.name},       {"m", g.m},        {"n", g.n}, {"k", g.k}, {"dtype", "fp16"},
          {"sparsity", sparsity}, {"kernel", kernel}};
}

}  // namespace

bool measure_gemm(const GemmSpec& g, const MeasureSettings& s, MeasureContext& ctx, json& entries,
                  json& skipped, json& baselines) {
  const Fp16Matrix x = random_fp16(g.m, g.k, s.seed), w = random_fp16(g.n, g.k, s.seed + 1);
  const bool want_sparse = s.kernels.count("sp24") || s.kernels.count("cusparselt");
  const Fp16Matrix w24 = want_sparse ? prune_24(w, g.n, g.k) : Fp16Matrix{};
  DeviceBuffer dx(x), dw(w), dw24(w24), dy(std::size_t(g.m) * g.n * 4);
  const std::size_t mn = std::size_t(g.m) * g.n;
  bool all_ok = true;

  // Our kernels: A is x (dense) or W (2:4, BSR: the simulator's transposed kernel).
  for (GemmKernel kind : {GemmKernel::Dense, GemmKernel::Sparse24, GemmKernel::Bsr}) {
    const char* key = kind == GemmKernel::Dense      ? "dense"
                      : kind == GemmKernel::Sparse24 ? "sp24"
                                                     : "bsr";
    if (!s.kernels.count(key)) continue;
    const bool on_w = kind != GemmKernel::Dense;
    GemmLaunch launch{kind, {}, on_w ? g.n : g.m, on_w ? g.m : g.n, g.k};
    std::string why;
    if (!choose_tile(kind, launch.m, launch.n, launch.k, s, ctx.device, launch.tile, why)) {
      skipped.push_back({{"name", g.name}, {"kernel", kernel_name(kind)}, {"why", why}});
      continue;
    }
    const int tiles_n = launch.n / launch.tile.cta_n;
    launch.swizzle = s.swizzle > 0 ? s.swizzle : std::min(8, tiles_n);
    launch.transpose_out = on_w;
    GemmBuffers buf;
    buf.d = dy.p;
    Fp16Matrix w_eff = w;  // the weights as this kernel multiplies them
    std::unique_ptr<DeviceBuffer> a_vals, a_meta, row_ptr, col_idx;
    json extra;
    if (kind == GemmKernel::Dense) {
      buf.a = dx.p;
      buf.b = dw.p;
    } else if (kind == GemmKernel::Sparse24) {
      w_eff = w24;
      const Sp24Operand op = pack_sp24(w24, g.n, g.k, launch.tile.cta_m, launch.tile.cta_k);
      a_vals = std::make_unique<DeviceBuffer>(op.values);
      a_meta = std::make_unique<DeviceBuffer>(op.meta);
      buf.a = a_vals->p;
      buf.a_meta = a_meta->p;
      buf.b = dx.p;
    } else {
      w_eff = prune_blocks(w, g.n, g.k, launch.tile.cta_m, launch.tile.cta_k, s.bsr_density);
      const BsrOperand op = pack_bsr(w_eff, g.n, g.k, launch.tile.cta_m, launch.tile.cta_k);
      a_vals = std::make_unique<DeviceBuffer>(op.values);
      row_ptr = std::make_unique<DeviceBuffer>(op.row_ptr);
      col_idx = std::make_unique<DeviceBuffer>(op.col_idx);
      buf.a = a_vals->p;
      buf.bsr_row_ptr = static_cast<const int*>(row_ptr->p);
      buf.bsr_col_idx = static_cast<const int*>(col_idx->p);
      buf.b = dx.p;
      extra = {{"block_rows", launch.tile.cta_m},
               {"block_cols", launch.tile.cta_k},
               {"density", s.bsr_density},
               {"kept_blocks", op.kept_blocks},
               {"total_blocks", op.total_blocks}};
    }
    auto run = [&](bool f32) {
      GemmLaunch l = launch;
      l.out_f32 = f32;
      CUDA_CHECK(launch_gemm(l, buf, ctx.stream));
    };
    // Correctness: fp32 output (the accumulator bits) and fp16 output, each on a poisoned buffer.
    CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 4));
    run(true);
    CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
    const std::vector<std::uint32_t> y32 = download<std::uint32_t>(dy.p, mn);
    CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 2));
    run(false);
    CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
    const Fp16Matrix y16 = download<std::uint16_t>(dy.p, mn);
    const int kpi = kind == GemmKernel::Sparse24 ? 32 : 16;
    const NumericsCheck nc = check_numerics(x, w_eff, g.m, g.n, g.k, kpi, y32, s.samples);
    const std::int64_t nan = count_nan_f32(y32), f16_bad = count_f16_rounding_mismatches(y32, y16);
    const bool ok = nan == 0 && f16_bad == 0 && nc.cpu_rel_error < 1e-3;
    all_ok = all_ok && ok;
    json presets = json::object();
    for (const auto& p : nc.presets)
      presets[p.preset] = {{"compared", p.compared},
                           {"exact", p.exact},
                           {"max_ulp", p.max_ulp},
                           {"mean_ulp", p.mean_ulp}};
    KernelResources res;
    CUDA_CHECK(kernel_resources(launch, &res));
    const KernelTile& t = launch.tile;
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
    e.update(timed([&](cudaStream_t) { run(false); }, s, ctx));
    std::cerr << "  " << g.name << " " << kernel_name(kind) << " " << t.str() << ": "
              << e["time_us"]["median"].get<double>() << " us" << (ok ? "" : "  CHECK FAILED")
              << "\n";
    entries.push_back(e);
  }

  // Vendor libraries: fp16 output, checked against the CPU reference on a sample.
  for (const char* lib : {"cublas", "cublaslt", "cusparselt"}) {
    if (!s.kernels.count(lib)) continue;
    const bool sparse = std::strcmp(lib, "cusparselt") == 0;
    std::string why;
    std::unique_ptr<VendorGemm> v =
        !std::strcmp(lib, "cublas") ? make_cublas(dx.p, dw.p, dy.p, g.m, g.n, g.k, why)
        : !std::strcmp(lib, "cublaslt")
            ? make_cublaslt(dx.p, dw.p, dy.p, g.m, g.n, g.k, why)
            : make_cusparselt(dx.p, dw24.p, dy.p, g.m, g.n, g.k, ctx.stream, why);
    baselines[lib] = v ? "ok" : why;
    if (!v) {
      skipped.push_back({{"name", g.name}, {"kernel", lib}, {"why", why}});
      continue;
    }
    try {
      CUDA_CHECK(cudaMemset(dy.p, 0xFF, mn * 2));
      v->launch(ctx.stream);
      CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
      const Fp16Matrix y16 = download<std::uint16_t>(dy.p, mn);
      const std::int64_t nan = count_nan_f16(y16);
      const double rel = sampled_rel_error_f16(x, sparse ? w24 : w, g.m, g.n, g.k, y16, s.samples);
      const bool ok = nan == 0 && rel < 5e-3;
      all_ok = all_ok && ok;
      json e = entry_head(g, sparse ? "2:4" : "dense", lib);
      e["mapping"] = nullptr;
      e["check"] = {{"passed", ok}, {"nan_or_unwritten", nan}, {"cpu_rel_error", rel}};
      e.update(timed([&](cudaStream_t st) { v->launch(st); }, s, ctx));
      std::cerr << "  " << g.name << " " << lib << ": " << e["time_us"]["median"].get<double>()
                << " us" << (ok ? "" : "  CHECK FAILED") << "\n";
      entries.push_back(e);
    } catch (const std::runtime_error& e) {
      baselines[lib] = std::string("error: ") + e.what();
      skipped.push_back(
          {{"name", g.name}, {"kernel", lib}, {"why", std::string("error: ") + e.what()}});
    }
  }
  return all_ok;
}

}  // namespace stcsim::validation
