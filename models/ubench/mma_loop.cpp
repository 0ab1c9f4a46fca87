// mma.sync m16n8k16 and mma.sp m16n8k32 (f16 in, f32 accumulators): the counterparts of
// validation/ubench/mma_bench.cu. Every SM runs one CTA of 4, 8 or 16 warps, each warp
// four independent accumulator chains, `iters` rounds of one mma per chain with operands
// held in registers; throughput is dense-equivalent flop per clock per SM from each CTA's
// clock span. Latency: one warp, one chain, clocks per instruction. The warps are issued
// by the sub-cores' warp schedulers (models/sm/warp_scheduler.h), as the GEMM kernels'
// are: warp w on sub-core w mod sub-cores, the earliest-ready instruction first.
// The warp-tile groups run MI x NI accumulators a warp (a GEMM warp tile's mma pattern, with
// distinct A and B fragments): on a preset with a register operand path
// (tensor_core.register_operand_bytes_per_cycle) they read a new B every mma and a new A
// every NI-th, where the chains read only their accumulators; without one they run at the
// chains' rate.
#include <algorithm>

#include "models/sm/warp_scheduler.h"
#include "models/ubench/microbenchmark.h"

namespace stcsim {

namespace {

constexpr int kChains = 4;
constexpr int kIters = 4096;

struct MmaLoopLaunch : UbenchLaunch {
  MmaLoopLaunch(int grid, const MmaKind& k, int w, int c, int it = kIters, int row = 0)
      : UbenchLaunch(grid, 1), kind(k), warps(w), chains(c), iters(it), ni(row) {}
  MmaKind kind;
  int warps, chains, iters;
  int ni;  // the warp tile's width in mma tiles (its A fragment's reuse); 0: same registers
  std::unique_ptr<CtaProgram> start_cta(const CtaTask& t, int slot, SmContext& sm) const override;
};

class MmaLoopCta : public SmLocalCta {
 public:
  MmaLoopCta(const MmaLoopLaunch& k, const CtaTask& t, SmContext& sm)
      : SmLocalCta(k, t, sm), k_(k) {}

 private:
  // The whole loop at once: nothing outside the SM's pipes takes part.
  Cycle run(Cycle now) override {
    const int nsub = int(sm_.pipes.size());
    std::vector<WarpState> warps(std::size_t(k_.warps));
    for (WarpState& w : warps) {
      w.frag_ready = now;  // operands stay in registers
      w.acc_ready.assign(std::size_t(k_.chains), now);
    }
    std::vector<std::vector<WarpState*>> by_sub(static_cast<std::size_t>(nsub));
    for (int w = 0; w < k_.warps; ++w)
      by_sub[std::size_t(w % nsub)].push_back(&warps[std::size_t(w)]);
    StallCounters stalls;
    for (int it = 0; it < k_.iters; ++it)
      for (int s = 0; s < nsub; ++s)
        if (!by_sub[std::size_t(s)].empty())
          issue_ksub(*sm_.pipes[std::size_t(s)], k_.kind, by_sub[std::size_t(s)], k_.chains,
                     MmaOrder{k_.ni, false}, now, stalls);
    Cycle end = now;
    for (const WarpState& w : warps) end = std::max(end, w.last_done);
    return end;
  }

  const MmaLoopLaunch& k_;
};

std::unique_ptr<CtaProgram> MmaLoopLaunch::start_cta(const CtaTask& t, int, SmContext& sm) const {
  return std::make_unique<MmaLoopCta>(*this, t, sm);
}

class MmaLoopBench : public IMicrobenchmark {
 public:
  MmaLoopBench(std::string group, std::string figure, NmSparsity sp)
      : group_(std::move(group)), figure_(std::move(figure)), kind_{Dtype::FP16, sp, 0} {}
  std::string name() const override { return group_; }
  std::vector<std::string> figures() const override {
    return {figure_ + "|throughput", figure_ + "|latency"};
  }
  std::string cannot_run(const KernelEnv& env) const override {
    return env.tc.supports(kind_) ? "" : env.tc.unsupported_reason(kind_);
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    const int sms = gpu.env().num_sms;
    const double flops = 2.0 * double(kind_.shape().m) * kind_.shape().n * kind_.shape().k;
    std::vector<UbenchResult> out;
    for (int warps : {4, 8, 16}) {
      UbenchResult r{figure_, "throughput", "flop/clk/SM",
                     "every SM, 1 CTA of `warps` warps, 4 independent chains per warp, clock64 "
                     "per CTA"};
      r.params = {{"warps_per_sm", warps}, {"chains_per_warp", kChains}, {"iterations", kIters}};
      const MmaLoopLaunch k(sms, kind_, warps, kChains);
      gpu.launch(k);
      for (Cycle c : k.cta_cycles) r.samples.push_back(flops * warps * kChains * kIters / c);
      out.push_back(r);
    }
    UbenchResult lat{figure_, "latency", "clk",
                     "one warp, one dependent chain: clocks per instruction"};
    lat.params = {{"iterations", kIters}};
    const MmaLoopLaunch k(1, kind_, 1, 1);
    gpu.launch(k);
    lat.samples.push_back(k.cta_cycles[0] / kIters);
    out.push_back(lat);
    return out;
  }

 private:
  std::string group_, figure_;
  MmaKind kind_;
};

// A GEMM warp tile's mma pattern: MI x NI independent accumulators a warp, 4 and 8 warps.
class MmaWarpTileBench : public IMicrobenchmark {
 public:
  MmaWarpTileBench(std::string group, std::string figure, NmSparsity sp)
      : group_(std::move(group)), figure_(std::move(figure)), kind_{Dtype::FP16, sp, 0} {}
  std::string name() const override { return group_; }
  std::vector<std::string> figures() const override {
    std::vector<std::string> f;
    for (const Tile& t : kTiles) f.push_back(tile_figure(t) + "|throughput");
    return f;
  }
  std::string cannot_run(const KernelEnv& env) const override {
    return env.tc.supports(kind_) ? "" : env.tc.unsupported_reason(kind_);
  }
  std::vector<UbenchResult> run(UbenchMachine& gpu) const override {
    constexpr int kTileIters = 512;  // as validation/ubench/mma_bench.cu
    const int sms = gpu.env().num_sms;
    const double flops = 2.0 * double(kind_.shape().m) * kind_.shape().n * kind_.shape().k;
    std::vector<UbenchResult> out;
    for (int warps : {4, 8})
      for (const Tile& t : kTiles) {
        UbenchResult r{tile_figure(t), "throughput", "flop/clk/SM",
                       "every SM, 1 CTA of `warps` warps, each a warp tile of MI x NI "
                       "accumulators with distinct A and B fragments in the mainloop's order, "
                       "clock64 per CTA"};
        r.params = {
            {"warps_per_sm", warps}, {"mi", t.mi}, {"ni", t.ni}, {"iterations", kTileIters}};
        const MmaLoopLaunch k(sms, kind_, warps, t.mi * t.ni, kTileIters, t.ni);
        gpu.launch(k);
        for (Cycle c : k.cta_cycles)
          r.samples.push_back(flops * warps * t.mi * t.ni * kTileIters / c);
        out.push_back(r);
      }
    return out;
  }

 private:
  struct Tile {
    int mi, ni;
  };
  // The harness kernels' warp tiles: 64x64 (4 x 8 mma tiles), 64x32 (4 x 4), 32x32 (2 x 4).
  static constexpr Tile kTiles[] = {{4, 8}, {4, 4}, {2, 4}};
  std::string tile_figure(const Tile& t) const {
    return figure_ + "_warp_tile_" + std::to_string(t.mi) + "x" + std::to_string(t.ni);
  }
  std::string group_, figure_;
  MmaKind kind_;
};

// The model has one mma.sp timing whatever the metadata's ordering; the two groups are
// measured apart on the GPU, so both are run.
struct DenseMma : MmaLoopBench {
  DenseMma() : MmaLoopBench("mma_sync_m16n8k16", "mma_sync_m16n8k16_f16_f32", NmSparsity{}) {}
};
struct SparseOrdered : MmaLoopBench {
  SparseOrdered()
      : MmaLoopBench("mma_sp_m16n8k32_ordered", "mma_sp_ordered_m16n8k32_f16_f32",
                     NmSparsity{2, 4}) {}
};
struct SparsePlain : MmaLoopBench {
  SparsePlain()
      : MmaLoopBench("mma_sp_m16n8k32_plain", "mma_sp_plain_m16n8k32_f16_f32", NmSparsity{2, 4}) {}
};
const UbenchRegistrar<DenseMma> reg_dense;
const UbenchRegistrar<SparseOrdered> reg_ordered;
const UbenchRegistrar<SparsePlain> reg_plain;
struct DenseWarpTile : MmaWarpTileBench {
  DenseWarpTile()
      : MmaWarpTileBench("mma_sync_m16n8k16_warp_tile", "mma_sync_m16n8k16_f16_f32", NmSparsity{}) {
  }
};
struct SparseWarpTile : MmaWarpTileBench {
  SparseWarpTile()
      : MmaWarpTileBench("mma_sp_m16n8k32_warp_tile", "mma_sp_ordered_m16n8k32_f16_f32",
                         NmSparsity{2, 4}) {}
};
const UbenchRegistrar<DenseWarpTile> reg_dense_tile;
const UbenchRegistrar<SparseWarpTile> reg_sparse_tile;

}  // namespace

}  // namespace stcsim
