// Implementation "mma_pipeline" of kind tensor_core: an in-order pipeline that starts
// a new mma every `ii` cycles and delivers its result `latency` cycles after issue,
// with (ii, latency) given per dtype by the preset.
//
// Sparse (mma.sp) support is a design parameter: the N:M patterns the datapath
// handles. A sparse instruction does the same number of real products as the dense
// one, so its interval starts at the dense one, but its datapath must also, every
// cycle, select the B elements that each kept A element multiplies (M/N times the
// dense B bytes) and read the metadata that steers the selection: if either path is
// narrower than the instruction needs, the interval grows to what the path allows.
//
// Warpgroup instructions (wgmma.mma_async, Hopper) are a separate rate: each sub-core's
// pipe runs its warp's m16 x N slice in N/8 steps of `wgmma_<dtype>_cycles_per_n8`, and
// the result follows the slice's last step by `wgmma_drain_cycles`. Hopper runs the
// legacy mma.sync at its own (per-dtype `_ii_cycles`) rate.
#pragma once
#include <array>
#include <vector>

#include "models/common/gap_timeline.h"
#include "models/tensor_core/i_tensor_core.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params().
struct MmaPipelineSpec {
  struct Timing {
    int ii = 0;       // cycles between issues; 0 = dtype not supported
    int latency = 0;  // cycles from issue to result
  };
  std::array<Timing, kNumDtypes> per_dtype{};         // indexed by Dtype
  std::array<int, kNumDtypes> wgmma_cycles_per_n8{};  // indexed by Dtype; 0 = no wgmma for it
  int wgmma_drain_cycles = 0;
  std::vector<NmSparsity> sparse_patterns;  // empty: no mma.sp
  int sparse_extra_latency = 0;             // metadata decode and operand selection stage
  double b_bytes_per_cycle = 0;             // B operand path width per pipe (0: unlimited)
  // The same for wgmma.sp, whose B comes from shared memory, not the registers (0: as
  // b_bytes_per_cycle). An H200's mma.sp ran at 1.5x mma.sync, its wgmma.sp at 2x.
  double wgmma_b_bytes_per_cycle = 0;
  double metadata_bits_per_cycle = 0;  // metadata path width per pipe (0: unlimited)
  // Register operands (A with its metadata, B, the accumulators C) an mma.sync / mma.sp
  // reads from the sub-core's register file per cycle (0: unlimited); an A or B fragment
  // in the registers the warp's previous mma read is not read again (operand reuse).
  double reg_operand_bytes_per_cycle = 0;
  // Whether the fragments a warp's ldmatrix write into the registers take that path too
  // (the register file's banks serve the writes and the operand reads).
  bool fragment_writes_on_path = false;
  std::string numerics = "ieee_sequential";  // accumulation model (models/numerics presets)

  static std::vector<ParamDecl> params();
  static MmaPipelineSpec from(const ParamSet& p);
};

class MmaPipeline : public ITensorCore {
 public:
  explicit MmaPipeline(const MmaPipelineSpec& spec) : spec_(spec) {}
  bool supports(const MmaKind& k) const override { return unsupported_reason(k).empty(); }
  std::string unsupported_reason(const MmaKind& k) const override;
  double initiation_interval(const MmaKind& k) const override;
  int latency(const MmaKind& k) const override;
  Cycle issue(Cycle ready, const MmaKind& k) override {
    const double ii = interval_of_issued(k);
    work_ += ii;
    return pipe_.append(ready, ii);
  }
  // mma.sync / mma.sp series take the earliest idle stretch from their ready cycle, each
  // at or after the one before it (GapTimeline); warpgroup instructions keep their order.
  void issue_series(const Cycle* ready, std::size_t n, const MmaKind& k, const std::uint8_t* reuse,
                    Cycle* start, Cycle* free_before) override {
    const double ii = interval_of_issued(k);
    if (k.warpgroup()) {
      ITensorCore::issue_series(ready, n, k, reuse, start, free_before);
      return;
    }
    if (reuse && spec_.reg_operand_bytes_per_cycle > 0) {
      const double* by_reuse = issued_ii_by_reuse_.data();
      pipe_.fill_series(
          ready, n, [&](std::size_t j) { return by_reuse[reuse[j] & 3]; }, start, free_before);
    } else {
      pipe_.fill_series(
          ready, n, [ii](std::size_t) { return ii; }, start, free_before);
    }
    for (std::size_t j = 0; j < n; ++j) work_ += ii;  // summed as before, one at a time
  }
  void forget_before(Cycle t) override { pipe_.forget_before(t); }
  bool charges_operand_reads() const override { return spec_.reg_operand_bytes_per_cycle > 0; }
  bool charges_fragment_writes() const override {
    return spec_.fragment_writes_on_path && spec_.reg_operand_bytes_per_cycle > 0;
  }
  Cycle write_registers(Cycle landed, double bytes, Cycle not_before,
                        Cycle* writes_end = nullptr) override {
    if (writes_end) *writes_end = 0;
    if (!spec_.fragment_writes_on_path || spec_.reg_operand_bytes_per_cycle <= 0) return 0;
    // The writes end as the fragment lands: free where the path is idle (an idle stretch
    // before later reservations too), queued behind the mma reads already on it where it
    // is busy; the warp's mma then follow them (writes_end).
    const double cycles = bytes / spec_.reg_operand_bytes_per_cycle;
    const Cycle idle_from = std::max(pipe_.free_at(), not_before);
    const Cycle start = pipe_.reserve(landed - cycles, cycles);
    if (writes_end) *writes_end = start + cycles;
    return std::max(0.0, start - idle_from);
  }
  // The interval of one kind-`k` instruction reading the register operands `reuse` leaves
  // to read (ITensorCore::kReuseA / kReuseB bits): at least the kind's interval.
  double interval_with_reuse(const MmaKind& k, unsigned reuse) const;
  Cycle busy_cycles() const override { return pipe_.busy_cycles(); }
  Cycle work_cycles() const override { return work_; }
  std::string numerics_preset() const override { return spec_.numerics; }
  Cycle free_at() const override { return pipe_.free_at(); }
  std::unique_ptr<ITensorCore> clone_empty() const override {
    return std::make_unique<MmaPipeline>(spec_);
  }

 private:
  const MmaPipelineSpec::Timing& timing(Dtype d) const { return spec_.per_dtype[int(d)]; }
  // A kernel issues one kind over and over: its interval (a sparse kind's involves a
  // log2 for the metadata width) is worked out once per change of kind.
  double interval_of_issued(const MmaKind& k) {
    if (k != issued_kind_) {
      issued_kind_ = k;
      issued_ii_ = initiation_interval(k);
      for (unsigned r = 0; r < 4; ++r) issued_ii_by_reuse_[r] = interval_with_reuse(k, r);
    }
    return issued_ii_;
  }
  MmaPipelineSpec spec_;
  GapTimeline pipe_;
  Cycle work_ = 0;                            // the instructions' own intervals (work_cycles)
  MmaKind issued_kind_{Dtype::FP16, {}, -1};  // matches no real kind: the first issue computes
  double issued_ii_ = 0;
  std::array<double, 4> issued_ii_by_reuse_{};  // by ITensorCore::kReuseA | kReuseB
};

}  // namespace stcsim
