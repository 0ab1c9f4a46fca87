// Implementations of kind "power":
//   none        no power model (the default): no energy or power stats, the SM runs at
//               gpu.clock_mhz.
//   board_dvfs  energy per event plus static power, and a board power limit enforced by
//               stepping the SM clock down (DVFS) on a linear voltage-frequency curve.
//
// board_dvfs. An op's energy at the nominal voltage V_nom is the sum of its events'
// energies: tensor-core products by dtype (plus, for mma.sp, the metadata decode and
// operand selection per product), CUDA-core FMAs, shared-memory, L2 and DRAM bytes.
// At a clock f the core voltage is V(f), linear between (min_clock_mhz,
// volts_at_min_clock) and (gpu.clock_mhz, volts_at_preset_clock). Dynamic energy on the
// core supply scales with (V/V_nom)^2 (C V^2 per transition); static power (leakage
// and idle) scales with V/V_nom; DRAM energy is on the memory's own supply and does
// not scale. The op's average power at f is (dynamic energy) / t(f) + static power.
//
// The controller's steady state: of the clocks gpu.clock_mhz, gpu.clock_mhz - step, ...
// down to min_clock_mhz, the highest whose average power is at or below the limit;
// when none is, the lowest (over_limit = 1). Power grows with f at every step, so the
// highest such clock is the first found from the top.
//
// With gpu.measured_clock_mhz set (a clock observed on a real GPU during the op) there
// is nothing to settle: the op is reported at that clock, its voltage read off the
// same curve (which still ends at gpu.clock_mhz), over_limit = 1 when the model draws
// more than the limit there. Settling again below a measured clock would count the
// controller twice.
//
// Assumption: an op's cycle count is the same at every clock. It is exact when the SM
// clock domain bounds the op (tensor pipes, shared memory, issue, and the L2, which
// runs on the same clock), which is when power is high enough to throttle; a
// DRAM-bound op would take fewer cycles at a lower clock, but it draws little power
// and settles at the preset clock, so it is not scaled.
#pragma once
#include <vector>

#include "models/power/i_power.h"
#include "sim/core/param.h"

namespace stcsim {

// The initialisers are the parameters' defaults, read by params(); the energies and the
// board's figures have none (a preset gives them, with their sources).
struct BoardDvfsSpec {
  // Dynamic energy per event at nominal_volts, in pJ.
  double fp16_pj_per_product = 0;  // fp16 and bf16 mma
  double tf32_pj_per_product = 0;
  double int8_pj_per_product = 0;
  double fp8_pj_per_product = 0;            // 0: no fp8 on this GPU (an fp8 op is then refused)
  double sparse_select_pj_per_product = 0;  // mma.sp: metadata decode, operand selection
  double cuda_fma_pj = 0;                   // one FP32 FMA lane-op on the CUDA cores
  double smem_pj_per_byte = 0;
  double l2_pj_per_byte = 0;
  double dram_pj_per_byte = 0;
  double static_watts = 0;  // leakage and idle power at nominal_volts
  double power_limit_watts = 0;
  // DVFS.
  double clock_step_mhz = 15;
  double min_clock_mhz = 0;
  double volts_at_min_clock = 0;
  double volts_at_preset_clock = 0;
  double nominal_volts = 0;  // the voltage the energies and static_watts are given at

  static std::vector<ParamDecl> params();
  static BoardDvfsSpec from(const ParamSet& p);
  // Throws InputError naming the parameter when the figures cannot describe a board
  // running at preset_mhz.
  void check(double preset_mhz) const;
};

class BoardDvfs : public IPower {
 public:
  // Throws InputError (BoardDvfsSpec::check) for figures that cannot describe the board.
  // measured_mhz > 0 (gpu.measured_clock_mhz): settle() reports every op at that clock.
  BoardDvfs(const BoardDvfsSpec& s, double preset_mhz, double measured_mhz = 0);
  bool present() const override { return true; }
  PowerReport settle(const PowerActivity& a) const override;

  // The core voltage at clock f.
  double volts(double f_mhz) const;
  // The op's report if it ran at f (its cycles unchanged).
  PowerReport at_clock(const PowerActivity& a, double f_mhz) const;
  // The candidate clocks, highest first: the preset, then down by clock_step_mhz, then
  // min_clock_mhz when the steps do not land on it.
  std::vector<double> clocks() const;

 private:
  BoardDvfsSpec spec_;
  double preset_mhz_;
  double measured_mhz_;
};

class NoPower : public IPower {
 public:
  bool present() const override { return false; }
  PowerReport settle(const PowerActivity&) const override { return {}; }
};

}  // namespace stcsim
